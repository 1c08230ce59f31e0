import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs'

/**
 * The record a running server keeps beside its SQLite file: the one place that says whether a live
 * server uses the file (the server refuses to start a second one on it; the CLI finds the server's
 * URL through it and refuses to restore under it).
 */

/** What a running server tells others about itself, beside its SQLite file. */
export interface InstanceRecord {
  pid: number
  /** The public origin: the CLI on the same machine reads it to find the server. */
  url: string
  startedAt: string
}

/** Another live server already serves this SQLite file. */
export class FileInUseError extends Error {
  constructor(
    readonly file: string,
    readonly other: InstanceRecord,
  ) {
    super(
      `Another workgraph server (pid ${other.pid}, ${other.url}) is already using ${file}. ` +
        'Two servers on one SQLite file refuse each other’s tokens and contend for writes: stop that one, ' +
        'or give this one another DATABASE_URL (Postgres for several instances).',
    )
  }
}

/** The file beside a SQLite database that names the server using it. */
export function instanceFileOf(databasePath: string): string {
  return `${databasePath}.server.json`
}

/** The live server using the SQLite file at `databasePath`, if any. */
export function liveServerOn(databasePath: string): InstanceRecord | undefined {
  return readLiveInstance(instanceFileOf(databasePath))
}

/** The record in `file`, or undefined when there is none or its process is gone. */
export function readLiveInstance(file: string): InstanceRecord | undefined {
  let record: InstanceRecord
  try {
    record = JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return undefined
  }
  if (!Number.isInteger(record.pid) || record.pid === process.pid) return undefined
  try {
    process.kill(record.pid, 0)
    return record
  } catch (error) {
    // EPERM: the process exists but belongs to another user, which still holds the file.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? record : undefined
  }
}

/**
 * Claims `file` for this process (created exclusively, so two servers starting at once cannot both
 * win), replacing a record whose process is gone. Returns the release to call on stop.
 */
export function claimInstanceFile(file: string, record: Omit<InstanceRecord, 'pid'>): () => void {
  const mine: InstanceRecord = { pid: process.pid, ...record }
  for (let attempt = 0; ; attempt++) {
    try {
      const fd = openSync(file, 'wx')
      writeSync(fd, `${JSON.stringify(mine)}\n`)
      closeSync(fd)
      break
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt > 0) throw error
      const other = readLiveInstance(file)
      if (other) throw new FileInUseError(file.replace(/\.server\.json$/, ''), other)
      unlinkSync(file)
    }
  }
  return () => {
    try {
      if (JSON.parse(readFileSync(file, 'utf8')).pid === process.pid) unlinkSync(file)
    } catch {}
  }
}

import { existsSync, statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Where the data lives, as `DATABASE_URL` names it. */
export type DatabaseTarget = { dialect: 'postgres'; url: string } | { dialect: 'sqlite'; path: string }

const GOOD =
  'a SQLite file path (./data/workgraph.db) or a postgres:// URL (postgres://user@localhost:5432/workgraph)'

/** `DATABASE_URL` names no database this service can open; the message says which value would. */
export class DatabaseUrlError extends Error {
  override readonly name = 'DatabaseUrlError'
  constructor(
    value: string,
    /** What is wrong and what would be right, without the value. */
    readonly reason: string,
  ) {
    super(`${maskUrl(value)}: ${reason}`)
  }
}

/** The value with any password in it replaced by `****`, for messages and logs. */
export function maskUrl(value: string): string {
  return value.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@/]*@/i, '$1****@')
}

/**
 * Reads a database location: a `postgres://` or `postgresql://` URL, a `file:///absolute/path`, the
 * SQLite `:memory:`, or a plain file path. Anything else (another scheme, a URL with a typo) is
 * refused rather than taken for a file name, so a mistake never becomes an empty SQLite database.
 */
export function parseDatabaseUrl(value: string): DatabaseTarget {
  if (value === ':memory:') return { dialect: 'sqlite', path: value }
  if (/^postgres(ql)?:/i.test(value)) {
    let url: URL | undefined
    try {
      url = new URL(value)
    } catch {}
    if (!url || !value.includes('://')) throw new DatabaseUrlError(value, `not a valid URL; expected ${GOOD}`)
    return { dialect: 'postgres', url: value }
  }
  if (/^file:/i.test(value)) {
    if (!value.startsWith('file:///'))
      throw new DatabaseUrlError(
        value,
        `a file: URL needs an absolute path (file:///srv/workgraph.db); or give ${GOOD}`,
      )
    return { dialect: 'sqlite', path: fileURLToPath(value) }
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(value)
  // A Windows drive (`C:\data`) is a path; any other `scheme:` is a database this service does not speak.
  if (scheme && !/^[a-z]:[\\/]/i.test(value))
    throw new DatabaseUrlError(value, `${scheme[1]}: databases are not supported; expected ${GOOD}`)
  const typo = /^([a-z][a-z0-9+.-]*)\/\//i.exec(value)
  if (typo)
    throw new DatabaseUrlError(value, `looks like a URL missing the ':' after ${typo[1]}; expected ${GOOD}`)
  return { dialect: 'sqlite', path: value }
}

/**
 * The directory a SQLite file would be created in must exist: a path under a missing directory is
 * almost always a typo, and creating it (at the filesystem root, say) would hide the mistake.
 */
export function checkSqliteDirectory(path: string): void {
  if (path === ':memory:') return
  const directory = dirname(resolve(path))
  if (!existsSync(directory))
    throw new DatabaseUrlError(
      path,
      `the directory ${directory} does not exist; create it (mkdir -p ${directory}) or choose another path`,
    )
  if (!statSync(directory).isDirectory()) throw new DatabaseUrlError(path, `${directory} is not a directory`)
}

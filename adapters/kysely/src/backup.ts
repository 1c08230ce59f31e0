import { copyFileSync, existsSync, renameSync, rmSync, statSync } from 'node:fs'
import SQLite from 'better-sqlite3'
import { NewerSchemaError } from './database-errors.ts'
import { checkSqliteDirectory, DatabaseUrlError, parseDatabaseUrl } from './database-url.ts'
import { liveServerOn } from './instance-file.ts'
import { MIGRATION_NAMES } from './migrations/index.ts'

/** What a backup or a restore did, for the one line the CLI prints. */
export interface BackupResult {
  file: string
  bytes: number
  /** The newest migration the copy holds. */
  schema: string | undefined
}

/** The SQLite file `url` names; a Postgres URL is refused with what to run instead. */
function sqliteFile(url: string, act: 'backup' | 'restore'): string {
  const target = parseDatabaseUrl(url)
  if (target.dialect === 'postgres')
    throw new DatabaseUrlError(
      url,
      act === 'backup'
        ? 'is Postgres: back it up with pg_dump --format=custom (docs/deployment.md)'
        : 'is Postgres: restore it with pg_restore (docs/deployment.md)',
    )
  if (target.path === ':memory:')
    throw new DatabaseUrlError(url, 'an in-memory database has nothing to back up')
  return target.path
}

function appliedMigrations(database: SQLite.Database): string[] {
  const table = database
    .prepare("select name from sqlite_master where type = 'table' and name = 'kysely_migration'")
    .get()
  if (!table) return []
  return (
    database.prepare('select name from kysely_migration order by name').all() as { name: string }[]
  ).map((r) => r.name)
}

/**
 * Copies the SQLite database `url` names to `file` with SQLite's online backup API: consistent at
 * one point in time while a server keeps writing (WAL readers never block the writer). Refuses to
 * overwrite a file.
 */
export async function backupSqlite(url: string, file: string): Promise<BackupResult> {
  const source = sqliteFile(url, 'backup')
  if (!existsSync(source)) throw new DatabaseUrlError(source, 'no database here to back up')
  if (existsSync(file)) throw new DatabaseUrlError(file, 'already exists: choose a new file name')
  checkSqliteDirectory(file)
  const database = new SQLite(source, { readonly: true, fileMustExist: true })
  try {
    database.pragma('busy_timeout = 5000')
    await database.backup(file)
  } finally {
    database.close()
  }
  const copy = new SQLite(file, { readonly: true })
  try {
    return { file, bytes: statSync(file).size, schema: appliedMigrations(copy).at(-1) }
  } finally {
    copy.close()
  }
}

/**
 * Puts the backup `file` in place of the SQLite database `url` names, which no live server may be
 * using (its instance file says). Refuses a backup taken by a newer version (its migrations are not
 * all known here) or a file that is not a workgraph database. An older one is fine: the server
 * migrates it on start. The database's own write-ahead log is removed with it, so no page of the
 * replaced database outlives the restore.
 */
export function restoreSqlite(file: string, url: string): BackupResult {
  const target = sqliteFile(url, 'restore')
  const server = liveServerOn(target)
  if (server)
    throw new DatabaseUrlError(
      target,
      `is in use by the server at ${server.url} (pid ${server.pid}): stop it first`,
    )
  if (!existsSync(file)) throw new DatabaseUrlError(file, 'no such backup file')
  checkSqliteDirectory(target)
  let applied: string[]
  try {
    const backup = new SQLite(file, { readonly: true, fileMustExist: true })
    try {
      if (backup.pragma('integrity_check', { simple: true }) !== 'ok')
        throw new DatabaseUrlError(file, 'fails SQLite’s integrity check: it is damaged')
      applied = appliedMigrations(backup)
    } finally {
      backup.close()
    }
  } catch (error) {
    if (error instanceof DatabaseUrlError) throw error
    throw new DatabaseUrlError(file, `is not a SQLite database (${(error as Error).message})`)
  }
  if (applied.length === 0)
    throw new DatabaseUrlError(file, 'is not a workgraph database (no migrations recorded)')
  const unknown = applied.filter((name) => !MIGRATION_NAMES.includes(name))
  if (unknown.length > 0) throw new NewerSchemaError(unknown)
  const temporary = `${target}.restoring`
  copyFileSync(file, temporary)
  for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target}${suffix}`, { force: true })
  renameSync(temporary, target)
  return { file: target, bytes: statSync(target).size, schema: applied.at(-1) }
}

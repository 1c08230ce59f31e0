import { DatabaseUrlError, maskUrl, parseDatabaseUrl } from './database-url.ts'

/** A migration failed; the batch it was part of was rolled back as one transaction. */
export class MigrationFailedError extends Error {
  override readonly name = 'MigrationFailedError'
  constructor(
    readonly migration: string,
    override readonly cause: unknown,
  ) {
    super(`migration ${migration} failed: ${(cause as Error)?.message ?? String(cause)}`)
  }
}

/** The database was migrated by a newer version of the service than this one. */
export class NewerSchemaError extends Error {
  override readonly name = 'NewerSchemaError'
  constructor(readonly unknown: string[]) {
    super(`the database has migrations this version does not know: ${unknown.join(', ')}`)
  }
}

type DriverError = { code?: string; message?: string; errno?: number; syscall?: string }

/**
 * One line saying what went wrong opening or migrating the database named by `url`, and what to do
 * about it, for the failures an operator can cause (a wrong URL, a database not created, a server
 * that is down, a refused password, missing rights, a failed migration, a full disk, a locked file).
 * Undefined for anything else: the caller prints the error itself.
 */
export function explainDatabaseError(error: unknown, url: string): string | undefined {
  if (error instanceof DatabaseUrlError) return `DATABASE_URL=${error.message}`
  if (error instanceof MigrationFailedError)
    return (
      `Migration ${error.migration} failed (${firstLine(error.cause)}); it and every migration of the same run were ` +
      'rolled back, so the database is as it was. Fix the cause and start again; LOG_LEVEL=debug shows the stack.'
    )
  if (error instanceof NewerSchemaError)
    return (
      `The database was migrated by a newer workgraph (${error.unknown.join(', ')} unknown to this version): ` +
      'run that version, or restore a backup taken by this one.'
    )
  const { code, message = '' } = (error ?? {}) as DriverError
  let target: ReturnType<typeof parseDatabaseUrl>
  try {
    target = parseDatabaseUrl(url)
  } catch {
    return undefined
  }
  if (target.dialect === 'postgres') {
    const at = new URL(target.url)
    const host = at.hostname || 'localhost'
    const port = at.port || '5432'
    const user = decodeURIComponent(at.username) || process.env.PGUSER || process.env.USER || 'postgres'
    const database = decodeURIComponent(at.pathname.slice(1)) || user
    const where = `Postgres at ${host}:${port}`
    // PgBouncer relays Postgres's refusal of an unknown database under its own code (08P01).
    const missingDatabase = code === '3D000' || /^database "[^"]*" does not exist/.test(message)
    switch (missingDatabase ? '3D000' : code) {
      case '3D000':
        return (
          `${where} has no database "${database}". Create it (createdb -h ${host} -p ${port} -U ${user} ${database}), ` +
          'or point DATABASE_URL at an existing one.'
        )
      case 'ECONNREFUSED':
        return `${where} refused the connection: is Postgres running there? Start it, or fix the host and port in DATABASE_URL (${maskUrl(url)}).`
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `The host "${host}" in DATABASE_URL does not resolve: fix the host name (${maskUrl(url)}).`
      case 'ETIMEDOUT':
      case 'EHOSTUNREACH':
        return `${where} did not answer in time: check that the address is reachable from here (firewall, network) and DATABASE_URL (${maskUrl(url)}).`
      case '28P01':
        return `${where} refused the password of user "${user}": fix the password in DATABASE_URL (postgres://${user}:PASSWORD@${host}:${port}/${database}).`
      case '28000':
        return `${where} refused user "${user}" (${message}): create the role, or allow it in pg_hba.conf.`
      case '42501':
        return `${where}: user "${user}" lacks a right the service needs (${message}). Grant it CREATE on database "${database}" (or its schema), or connect as the database's owner.`
      case '53100':
        return `${where} is out of disk space (${message}): free some, then start again.`
      case '57P03':
        return `${where} is starting up or shutting down: start again in a moment.`
    }
    if (
      /timeout exceeded when trying to connect|Connection terminated due to connection timeout/i.test(message)
    )
      return `${where} did not answer in time: check that it is running and reachable, and DATABASE_URL (${maskUrl(url)}).`
    return undefined
  }
  const file = target.path
  switch (code) {
    case 'SQLITE_FULL':
    case 'ENOSPC':
      return `The disk holding ${file} is full: free some space, then start again.`
    case 'SQLITE_CANTOPEN':
    case 'EACCES':
    case 'EPERM':
      return `${file} cannot be opened (${message}): check that it and its directory are readable and writable by this user.`
    case 'SQLITE_READONLY':
      return `${file} is read-only for this user: fix its permissions, or choose another DATABASE_URL.`
    case 'SQLITE_BUSY':
    case 'SQLITE_LOCKED':
      return `${file} is locked by another process (another workgraph server or a tool holding a write): stop it, or choose another DATABASE_URL.`
    case 'SQLITE_NOTADB':
    case 'SQLITE_CORRUPT':
      return `${file} is not a usable SQLite database (${message}): restore a backup, or choose another DATABASE_URL.`
  }
  return undefined
}

function firstLine(error: unknown): string {
  return String((error as Error)?.message ?? error).split('\n')[0]!
}

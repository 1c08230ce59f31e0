import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { defineCommand } from 'citty'
import { CliError } from '../errors.ts'
import { log } from '../output.ts'
import { guarded } from './shared.ts'

/** The reference server's default: a SQLite file in `./.workgraph` (packages/server). */
export const DEFAULT_DATABASE_URL = './.workgraph/workgraph.db'

export const migrate = defineCommand({
  meta: {
    name: 'migrate',
    description: 'Bring the database to the latest schema, as the server does on start (DATABASE_URL)',
  },
  args: {
    'database-url': {
      type: 'string',
      description: `A SQLite file path or a postgres:// URL (default: DATABASE_URL, else ${DEFAULT_DATABASE_URL})`,
    },
  },
  run: guarded(async ({ args }) => {
    const url = args['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
    // Loaded here only: the database drivers are native modules that the other commands never need.
    const { connect, explainDatabaseError, migrateToLatest } = await import('@workgraph/kysely')
    // As the server does: only the default's directory is made; another path's must exist.
    if (url === DEFAULT_DATABASE_URL) mkdirSync(dirname(url), { recursive: true })
    const explained = (error: unknown) => {
      const line = explainDatabaseError(error, url)
      return line ? new CliError(line) : error
    }
    const { db, dialect, pool } = await connect({ url }).catch((error: unknown) => {
      throw explained(error)
    })
    try {
      const result = await migrateToLatest(db, dialect, pool ? { pool } : {}).catch((error: unknown) => {
        throw explained(error)
      })
      const applied = (result.results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
      const where = dialect === 'postgres' ? 'Postgres' : `SQLite (${url})`
      log.success(
        applied.length === 0
          ? `${where} is already at the latest schema.`
          : `${where}: applied ${applied.length} migration(s): ${applied.join(', ')}`,
      )
    } finally {
      await db.destroy()
    }
  }),
})

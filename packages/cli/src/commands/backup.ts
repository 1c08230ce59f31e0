import { defineCommand } from 'citty'
import { CliError } from '../errors.ts'
import { log } from '../output.ts'
import { DEFAULT_DATABASE_URL } from './migrate.ts'
import { guarded } from './shared.ts'

const databaseArg = {
  type: 'string',
  description: `The SQLite database (default: DATABASE_URL, else ${DEFAULT_DATABASE_URL})`,
} as const

/** Turns what the storage layer refuses into the one line the person acts on. */
async function explained<T>(url: string, act: () => Promise<T> | T): Promise<T> {
  const { DatabaseUrlError, explainDatabaseError } = await import('@workgraph/kysely')
  try {
    return await act()
  } catch (error) {
    // A refusal about a file names that file itself; anything else is said as the server would.
    const line = error instanceof DatabaseUrlError ? error.message : explainDatabaseError(error, url)
    throw line ? new CliError(line) : error
  }
}

const kib = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en')} KiB`

export const backup = defineCommand({
  meta: {
    name: 'backup',
    description: 'Copy the SQLite database to a file, consistently, while a server keeps running on it',
  },
  args: {
    file: { type: 'positional', required: true, description: 'The new file to write' },
    'database-url': databaseArg,
  },
  run: guarded(async ({ args }) => {
    const url = args['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
    // Loaded here only: the database drivers are native modules that the other commands never need.
    const { backupSqlite } = await import('@workgraph/kysely')
    const result = await explained(url, () => backupSqlite(url, args.file))
    log.success(
      `Backed up ${url} to ${result.file} (${kib(result.bytes)}, schema ${result.schema ?? 'empty'}).`,
    )
  }),
})

export const restore = defineCommand({
  meta: {
    name: 'restore',
    description: 'Put a backup in place of the SQLite database; the server on it must be stopped',
  },
  args: {
    file: { type: 'positional', required: true, description: 'The backup to restore' },
    'database-url': databaseArg,
  },
  run: guarded(async ({ args }) => {
    const url = args['database-url'] ?? process.env.DATABASE_URL ?? DEFAULT_DATABASE_URL
    const { restoreSqlite } = await import('@workgraph/kysely')
    const result = await explained(url, () => restoreSqlite(args.file, url))
    log.success(
      `Restored ${args.file} to ${result.file} (${kib(result.bytes)}, schema ${result.schema}); start the server on it.`,
    )
  }),
})

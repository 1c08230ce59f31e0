import { readdirSync } from 'node:fs'
import type { Dialect } from '@workgraph/kysely'
import type { Kysely, Migration } from 'kysely'

type Step = { up(db: Kysely<any>, dialect: Dialect): Promise<void> }
const DIR = new URL('../../adapters/kysely/src/migrations/', import.meta.url)

/** Every migration of the Kysely adapter by name, bound to `dialect`, for a Migrator a test drives step by step. */
export async function migrationsFor(dialect: Dialect): Promise<Record<string, Migration>> {
  const all: Record<string, Migration> = {}
  for (const file of readdirSync(DIR).filter((f) => /^\d{4}_.*\.ts$/.test(f))) {
    const m = (await import(new URL(file, DIR).href)) as Step
    all[file.replace(/\.ts$/, '')] = { up: (db: Kysely<any>) => m.up(db, dialect) }
  }
  return all
}

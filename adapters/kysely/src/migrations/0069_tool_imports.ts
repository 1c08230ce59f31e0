import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Imports from other tools (Linear, GitHub Issues): an import can be a dry run, counts the records
 * it updated, works through the file twice (records, then the links between them: `linked_rows`),
 * and keeps the base URL its source's keys link to. A row error knows its line in the file and
 * whether the row was refused or imported with a note (an unknown person, a parent that would
 * close a cycle).
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`alter table imports add column dry_run integer not null default 0`.execute(db)
  await sql`alter table imports add column updated_count integer not null default 0`.execute(db)
  await sql`alter table imports add column linked_rows integer not null default 0`.execute(db)
  await sql`alter table imports add column source_url text`.execute(db)
  await sql`alter table import_errors add column line integer`.execute(db)
  await sql`alter table import_errors add column refused integer not null default 1`.execute(db)
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Archived cycles (null while not archived; only completed cycles are archived), and the task a
 * project was converted from (null for projects created otherwise).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  await db.schema.alterTable('cycles').addColumn('archived_at', ts).execute()
  await db.schema.alterTable('projects').addColumn('converted_from_task_id', 'text').execute()
}

import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Retention prunes the event log by age: find each org's cut-off without scanning the whole log. */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.createIndex('events_created').on('events').columns(['created_at', 'org_id']).execute()
}

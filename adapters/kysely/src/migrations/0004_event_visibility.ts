import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Events carry the team holding their record (null for org-level records), so a stream reader's
 * permission predicate is one `team_id in (…)` in the query, read in order through the index.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema.alterTable('events').addColumn('team_id', 'text').execute()
  await db.schema.createIndex('events_team').on('events').columns(['org_id', 'team_id', 'seq']).execute()
}

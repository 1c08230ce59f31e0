import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Indexes the permissioned reads need (plans in docs/performance-log.md):
 * - a reader who sees only some teams lists `team_id in (…)` in creation or change order: one keyset
 *   index per sort with the team before the sort key, so each team's page is an index range and
 *   the planner merges a few of them instead of walking the org's newest tasks until enough match;
 * - `loadProfile` looks grants up by subject id alone (`subject_id in (actor, its teams)`), which
 *   the unique key, led by `subject_type`, cannot serve.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tasks_team_created')
    .on('tasks')
    .columns(['org_id', 'team_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('tasks_team_updated')
    .on('tasks')
    .columns(['org_id', 'team_id', 'updated_at', 'id'])
    .execute()
  await db.schema.createIndex('grants_subject').on('grants').columns(['org_id', 'subject_id']).execute()
}

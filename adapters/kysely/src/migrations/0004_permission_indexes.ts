import type { Kysely } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A guest's task list is `team_id in (the teams its grants reach)`, newest first: this index lets
 * storage read the newest tasks of each of those teams without walking the whole org's list.
 */
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('tasks_team_created')
    .on('tasks')
    .columns(['org_id', 'team_id', 'created_at', 'id'])
    .execute()
}

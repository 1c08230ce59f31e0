import type { Kysely } from 'kysely'
import { deleteThreadsOf } from '../comments/purge.ts'
import type { Database } from '../schema.ts'

/**
 * What a deleted program or initiative leaves besides its own tables: the comment threads on it and
 * on its status updates (with their reactions), and its followers. Runs before its updates go.
 */
export async function purgeFollowedRecord(
  db: Kysely<Database>,
  orgId: string,
  type: 'program' | 'initiative',
  id: string,
): Promise<void> {
  const updateIds = await db
    .selectFrom('statusUpdates')
    .select('id')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', type)
    .where('subjectId', '=', id)
    .execute()
  await deleteThreadsOf(db, orgId, type, [id])
  await deleteThreadsOf(
    db,
    orgId,
    'update',
    updateIds.map((u) => u.id),
  )
  await db
    .deleteFrom('updateRequests')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', type)
    .where('subjectId', '=', id)
    .execute()
  await db
    .deleteFrom('recordFollowers')
    .where('orgId', '=', orgId)
    .where('recordType', '=', type)
    .where('recordId', '=', id)
    .execute()
}

import type { Kysely } from 'kysely'
import { deleteThreadsOf } from '../comments/purge.ts'
import { deleteRecordProperties } from '../connectors/record-properties.ts'
import { deleteLinksOf } from '../links/resource-links.ts'
import type { Database } from '../schema.ts'

/**
 * What a deleted program or initiative leaves besides its own tables: the comment threads on it and
 * on its status updates (with their reactions), its followers, its URL resources, its labels and app properties. Runs
 * before its updates go.
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
  await deleteRecordProperties(db, orgId, type, id)
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
  await deleteLinksOf(db, orgId, type, id)
  if (type === 'program') {
    await db.deleteFrom('programLabels').where('orgId', '=', orgId).where('programId', '=', id).execute()
  } else {
    await db
      .deleteFrom('initiativeLabels')
      .where('orgId', '=', orgId)
      .where('initiativeId', '=', id)
      .execute()
  }
}

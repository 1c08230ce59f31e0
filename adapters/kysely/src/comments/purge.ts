import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'

/**
 * Deletes the threads (comments, their kept bodies and reactions) and the reactions of records of
 * one kind that are being deleted: a project, its milestones, its status updates, documents. Tasks are only
 * ever soft-deleted, so their threads stay.
 */
export async function deleteThreadsOf(
  db: Kysely<Database>,
  orgId: string,
  subjectType: 'project' | 'milestone' | 'update' | 'program' | 'initiative' | 'document',
  subjectIds: string[],
): Promise<void> {
  if (subjectIds.length === 0) return
  const comments = db
    .selectFrom('comments')
    .select('id')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', subjectType)
    .where('subjectId', 'in', subjectIds)
  await db
    .deleteFrom('reactions')
    .where('orgId', '=', orgId)
    .where((eb) =>
      eb.or([
        eb.and([eb('targetType', '=', 'comment'), eb('targetId', 'in', comments)]),
        eb.and([eb('targetType', '=', subjectType), eb('targetId', 'in', subjectIds)]),
      ]),
    )
    .execute()
  await db
    .deleteFrom('commentRevisions')
    .where('orgId', '=', orgId)
    .where('commentId', 'in', comments)
    .execute()
  await db
    .deleteFrom('comments')
    .where('orgId', '=', orgId)
    .where('subjectType', '=', subjectType)
    .where('subjectId', 'in', subjectIds)
    .execute()
}

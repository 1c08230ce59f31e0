import type { Kysely } from 'kysely'
import type { GroupPurge, PurgePart } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'

type Subject = 'project' | 'milestone' | 'update' | 'program' | 'initiative' | 'document'

/**
 * The threads (comments, their kept bodies and reactions) on deleted records of one kind, and the
 * reactions on the records themselves. Tasks are only ever soft-deleted, so their threads stay.
 */
const threadsOf =
  (subjectType: Subject): PurgePart =>
  async (db: Kysely<Database>, orgId, ids) => {
    const comments = db
      .selectFrom('comments')
      .select('id')
      .where('orgId', '=', orgId)
      .where('subjectType', '=', subjectType)
      .where('subjectId', 'in', [...ids])
    await db
      .deleteFrom('reactions')
      .where('orgId', '=', orgId)
      .where((eb) =>
        eb.or([
          eb.and([eb('targetType', '=', 'comment'), eb('targetId', 'in', comments)]),
          eb.and([eb('targetType', '=', subjectType), eb('targetId', 'in', [...ids])]),
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
      .where('subjectId', 'in', [...ids])
      .execute()
  }

export const commentsPurge: GroupPurge = {
  group: 'comments',
  owns: [],
  parts: {
    project: threadsOf('project'),
    milestone: threadsOf('milestone'),
    update: threadsOf('update'),
    program: threadsOf('program'),
    initiative: threadsOf('initiative'),
    document: threadsOf('document'),
  },
}

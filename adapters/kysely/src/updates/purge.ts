import type { GroupPurge, PurgePart } from '../purge-kinds.ts'

/** A deleted subject's status updates (each purged as an `update`, so its threads go) and the requests for them. */
const updatesOf =
  (subjectType: 'project' | 'program' | 'initiative'): PurgePart =>
  async (db, orgId, ids, purge) => {
    const updates = await db
      .selectFrom('statusUpdates')
      .select('id')
      .where('orgId', '=', orgId)
      .where('subjectType', '=', subjectType)
      .where('subjectId', 'in', [...ids])
      .execute()
    await purge(
      orgId,
      'update',
      updates.map((u) => u.id),
    )
    await db
      .deleteFrom('updateRequests')
      .where('orgId', '=', orgId)
      .where('subjectType', '=', subjectType)
      .where('subjectId', 'in', [...ids])
      .execute()
  }

export const updatesPurge: GroupPurge = {
  group: 'updates',
  owns: ['update'],
  parts: {
    async update(db, orgId, ids) {
      await db
        .deleteFrom('statusUpdateRevisions')
        .where('orgId', '=', orgId)
        .where('updateId', 'in', [...ids])
        .execute()
      await db
        .deleteFrom('statusUpdates')
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
        .execute()
    },
    project: updatesOf('project'),
    program: updatesOf('program'),
    initiative: updatesOf('initiative'),
  },
}

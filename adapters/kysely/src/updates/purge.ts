import { deleteRows, type GroupPurge, type PurgePart } from '../purge-kinds.ts'

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
    await deleteRows(['updateRequests', 'subjectId', ['subjectType', subjectType]])(db, orgId, ids, purge)
  }

export const updatesPurge: GroupPurge = {
  group: 'updates',
  owns: ['update'],
  parts: {
    update: deleteRows(['statusUpdateRevisions', 'updateId'], ['statusUpdates', 'id']),
    project: updatesOf('project'),
    program: updatesOf('program'),
    initiative: updatesOf('initiative'),
  },
}

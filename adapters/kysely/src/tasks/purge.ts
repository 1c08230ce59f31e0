import type { GroupPurge } from '../purge-kinds.ts'

/** Tasks outlive what they were placed in: they are detached, never deleted (a task's own delete is soft). */
export const tasksPurge: GroupPurge = {
  group: 'tasks',
  owns: [],
  parts: {
    async cycle(db, orgId, ids) {
      await db
        .updateTable('tasks')
        .set({ cycleId: null })
        .where('orgId', '=', orgId)
        .where('cycleId', 'in', [...ids])
        .execute()
    },
    async project(db, orgId, ids) {
      await db
        .updateTable('tasks')
        .set({ projectId: null, milestoneId: null })
        .where('orgId', '=', orgId)
        .where('projectId', 'in', [...ids])
        .execute()
    },
    async milestone(db, orgId, ids) {
      await db
        .updateTable('tasks')
        .set({ milestoneId: null })
        .where('orgId', '=', orgId)
        .where('milestoneId', 'in', [...ids])
        .execute()
    },
  },
}

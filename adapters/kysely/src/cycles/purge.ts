import type { GroupPurge } from '../purge-kinds.ts'

export const cyclesPurge: GroupPurge = {
  group: 'cycles',
  owns: ['cycle'],
  parts: {
    async cycle(db, orgId, ids) {
      await db
        .deleteFrom('cycles')
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
        .execute()
    },
  },
}

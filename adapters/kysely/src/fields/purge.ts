import type { GroupPurge } from '../purge-kinds.ts'

export const fieldsPurge: GroupPurge = {
  group: 'fields',
  owns: [],
  parts: {
    async project(db, orgId, ids) {
      await db
        .deleteFrom('customFieldValues')
        .where('orgId', '=', orgId)
        .where('recordKind', '=', 'project')
        .where('recordId', 'in', [...ids])
        .execute()
    },
  },
}

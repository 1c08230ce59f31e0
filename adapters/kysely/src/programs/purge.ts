import type { GroupPurge } from '../purge-kinds.ts'

/**
 * A program's labels; its project links, members, teams and initiative links go by foreign-key
 * cascade with the row, as do the initiative links of a deleted initiative or the program links of a
 * deleted project.
 */
export const programsPurge: GroupPurge = {
  group: 'programs',
  owns: ['program'],
  parts: {
    async program(db, orgId, ids) {
      await db
        .deleteFrom('programLabels')
        .where('orgId', '=', orgId)
        .where('programId', 'in', [...ids])
        .execute()
      await db
        .deleteFrom('programs')
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
        .execute()
    },
  },
}

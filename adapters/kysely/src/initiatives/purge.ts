import type { GroupPurge } from '../purge-kinds.ts'

export const initiativesPurge: GroupPurge = {
  group: 'initiatives',
  owns: ['initiative'],
  parts: {
    /** Its place in the hierarchy, links, members, history, metric and labels; sub-initiatives were moved up before. */
    async initiative(db, orgId, ids) {
      const these = [...ids]
      await db
        .deleteFrom('initiativeClosure')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('ancestorId', 'in', these), eb('descendantId', 'in', these)]))
        .execute()
      await db
        .deleteFrom('initiativeProjects')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db
        .deleteFrom('initiativeMembers')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db
        .deleteFrom('initiativeHistory')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db
        .deleteFrom('initiativeMetricValues')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db
        .deleteFrom('initiativeMetrics')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db
        .deleteFrom('initiativeLabels')
        .where('orgId', '=', orgId)
        .where('initiativeId', 'in', these)
        .execute()
      await db.deleteFrom('initiatives').where('orgId', '=', orgId).where('id', 'in', these).execute()
    },
    /** Initiatives that linked a deleted project lose the link. */
    async project(db, orgId, ids) {
      await db
        .deleteFrom('initiativeProjects')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', [...ids])
        .execute()
    },
  },
}

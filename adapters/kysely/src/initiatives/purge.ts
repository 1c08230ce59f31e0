import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

/** Its links, members, history, metric and labels, then the initiatives themselves. */
const initiativeRows = deleteRows(
  ['initiativeProjects', 'initiativeId'],
  ['initiativeMembers', 'initiativeId'],
  ['initiativeHistory', 'initiativeId'],
  ['initiativeMetricValues', 'initiativeId'],
  ['initiativeMetrics', 'initiativeId'],
  ['initiativeLabels', 'initiativeId'],
  ['initiatives', 'id'],
)

export const initiativesPurge: GroupPurge = {
  group: 'initiatives',
  owns: ['initiative'],
  parts: {
    /** Its place in the hierarchy, links, members, history, metric and labels; sub-initiatives were moved up before. */
    async initiative(db, orgId, ids, purge) {
      const these = [...ids]
      await db
        .deleteFrom('initiativeClosure')
        .where('orgId', '=', orgId)
        .where((eb) => eb.or([eb('ancestorId', 'in', these), eb('descendantId', 'in', these)]))
        .execute()
      await initiativeRows(db, orgId, ids, purge)
    },
    /** Initiatives that linked a deleted project lose the link. */
    project: deleteRows(['initiativeProjects', 'projectId']),
  },
}

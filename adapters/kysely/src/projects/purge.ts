import { deleteRows, type GroupPurge } from '../purge-kinds.ts'

/** The followers of a deleted program or initiative (projects keep members, not followers). */
const followersOf = (recordType: 'program' | 'initiative') =>
  deleteRows(['recordFollowers', 'recordId', ['recordType', recordType]])

/** A project's own rows once its milestones went: history, members, labels, teams, then the project. */
const projectRows = deleteRows(
  ['projectHistory', 'projectId'],
  ['projectMembers', 'projectId'],
  ['projectLabels', 'projectId'],
  ['projectTeams', 'projectId'],
  ['projects', 'id'],
)

export const projectsPurge: GroupPurge = {
  group: 'projects',
  owns: ['project', 'milestone'],
  parts: {
    /** Its milestones (each purged as a `milestone`), history, members, labels and teams. */
    async project(db, orgId, ids, purge) {
      const milestones = await db
        .selectFrom('milestones')
        .select('id')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', [...ids])
        .execute()
      await purge(
        orgId,
        'milestone',
        milestones.map((m) => m.id),
      )
      await projectRows(db, orgId, ids, purge)
    },
    milestone: deleteRows(['milestones', 'id']),
    program: followersOf('program'),
    initiative: followersOf('initiative'),
  },
}

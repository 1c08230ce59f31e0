import type { GroupPurge, PurgePart } from '../purge-kinds.ts'

/** The followers of a deleted program or initiative (projects keep members, not followers). */
const followersOf =
  (recordType: 'program' | 'initiative'): PurgePart =>
  async (db, orgId, ids) => {
    await db
      .deleteFrom('recordFollowers')
      .where('orgId', '=', orgId)
      .where('recordType', '=', recordType)
      .where('recordId', 'in', [...ids])
      .execute()
  }

export const projectsPurge: GroupPurge = {
  group: 'projects',
  owns: ['project', 'milestone'],
  parts: {
    /** Its milestones (each purged as a `milestone`), history, members, labels and teams. */
    async project(db, orgId, ids, purge) {
      const these = [...ids]
      const milestones = await db
        .selectFrom('milestones')
        .select('id')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', these)
        .execute()
      await purge(
        orgId,
        'milestone',
        milestones.map((m) => m.id),
      )
      await db
        .deleteFrom('projectHistory')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', these)
        .execute()
      await db
        .deleteFrom('projectMembers')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', these)
        .execute()
      await db
        .deleteFrom('projectLabels')
        .where('orgId', '=', orgId)
        .where('projectId', 'in', these)
        .execute()
      await db.deleteFrom('projectTeams').where('orgId', '=', orgId).where('projectId', 'in', these).execute()
      await db.deleteFrom('projects').where('orgId', '=', orgId).where('id', 'in', these).execute()
    },
    async milestone(db, orgId, ids) {
      await db
        .deleteFrom('milestones')
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
        .execute()
    },
    program: followersOf('program'),
    initiative: followersOf('initiative'),
  },
}

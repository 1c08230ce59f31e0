import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The programs tables, as queries see them. */
export interface ProgramsTables {
  programs: {
    orgId: string
    id: string
    name: string
    description: string | null
    icon: string | null
    color: string
    ownerId: string | null
    status: string
    retiredAt: NullableTimestamp
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  programProjects: {
    orgId: string
    programId: string
    projectId: string
    position: number
    addedBy: string
    addedAt: Timestamp
  }
  /** Added by 0052_container_links_labels: org labels on a program. */
  programLabels: { orgId: string; programId: string; labelId: string; createdAt: Timestamp }
  programMembers: {
    orgId: string
    programId: string
    memberId: string
    createdAt: Timestamp
  }
  programHistory: {
    orgId: string
    id: string
    programId: string
    actorId: string
    field: string
    beforeValue: JsonColumn
    afterValue: JsonColumn
    refType: string | null
    refId: string | null
    createdAt: Timestamp
  }
  initiativePrograms: {
    orgId: string
    initiativeId: string
    programId: string
    position: number
    addedBy: string
    addedAt: Timestamp
  }
  programTeams: {
    orgId: string
    programId: string
    teamId: string
    createdAt: Timestamp
  }
}

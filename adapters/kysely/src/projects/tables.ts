import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The projects tables, as queries see them. */
export interface ProjectsTables {
  projectStatuses: {
    orgId: string
    id: string
    name: string
    nameKey: string
    category: string
    color: string
    description: string | null
    position: number
    seed: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  projects: {
    orgId: string
    id: string
    name: string
    description: string | null
    icon: string | null
    color: string
    statusId: string
    leadId: string | null
    priority: string
    startDate: string | null
    targetDate: string | null
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
    startedAt: NullableTimestamp
    completedAt: NullableTimestamp
    canceledAt: NullableTimestamp
    archivedAt: NullableTimestamp
    /** Added by 0055_cycle_archive_project_conversion. */
    convertedFromTaskId: string | null
    /** Added by 0012_project_updates. */
    updateCadence: string
    updateWeekday: string
  }
  projectTeams: { orgId: string; projectId: string; teamId: string; createdAt: Timestamp }
  milestones: {
    orgId: string
    id: string
    projectId: string
    name: string
    nameKey: string
    description: string | null
    targetDate: string | null
    position: number
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  recordFollowers: {
    orgId: string
    recordType: string
    recordId: string
    actorId: string
    createdAt: Timestamp
  }
  projectRelations: {
    orgId: string
    id: string
    type: string
    projectId: string
    milestoneId: string | null
    relatedProjectId: string
    relatedMilestoneId: string | null
    sourceKey: string
    targetKey: string
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  /** Added by 0015_project_relations: members (the lead is one) and org labels of a project. */
  projectMembers: { orgId: string; projectId: string; memberId: string; createdAt: Timestamp }
  projectLabels: { orgId: string; projectId: string; labelId: string; createdAt: Timestamp }
  projectHistory: {
    orgId: string
    id: string
    projectId: string
    actorId: string | null
    field: string
    beforeValue: JsonColumn
    afterValue: JsonColumn
    createdAt: Timestamp
  }
}

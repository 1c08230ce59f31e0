import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The initiatives tables, as queries see them. */
export interface InitiativesTables {
  initiatives: {
    orgId: string
    id: string
    name: string
    description: string | null
    ownerId: string | null
    status: string
    targetDate: string | null
    parentId: string | null
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
    startedAt: NullableTimestamp
    completedAt: NullableTimestamp
    canceledAt: NullableTimestamp
    archivedAt: NullableTimestamp
  }
  /** Every ancestor/descendant pair, the initiative itself at depth 0. */
  initiativeClosure: { orgId: string; ancestorId: string; descendantId: string; depth: number }
  initiativeProjects: {
    orgId: string
    initiativeId: string
    projectId: string
    position: number
    addedAt: Timestamp
  }
  /** Added by 0052_container_links_labels: org labels on an initiative. */
  initiativeLabels: { orgId: string; initiativeId: string; labelId: string; createdAt: Timestamp }
  initiativeMembers: { orgId: string; initiativeId: string; memberId: string; addedAt: Timestamp }
  initiativeHistory: {
    orgId: string
    id: string
    initiativeId: string
    actorId: string
    action: string
    changes: JsonColumn
    createdAt: Timestamp
  }
  initiativeMetrics: {
    orgId: string
    initiativeId: string
    unit: string
    currencyCode: string | null
    precision: number
    initial: number
    target: number
    current: number
    progressSource: string
    updatedAt: Timestamp
  }
  initiativeMetricValues: {
    orgId: string
    id: string
    initiativeId: string
    value: number
    note: string | null
    authorId: string
    createdAt: Timestamp
  }
}

import type { ColumnType } from 'kysely'

/** Dates arrive as `Date` from Postgres and as ISO text from SQLite; writes are always ISO text. */
type Timestamp = ColumnType<Date | string, string, string>
type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>
/** Postgres returns bigint as text. */
type BigIntColumn = ColumnType<string | number, number, number>
/** jsonb in Postgres (parsed on read), text in SQLite; always written as JSON text. */
type JsonColumn = ColumnType<unknown, string, string>

/** Table and column names as queries see them; CamelCasePlugin maps them to snake_case in SQL. */
export interface Database {
  users: { id: string; email: string; name: string; createdAt: Timestamp }
  orgs: {
    id: string
    name: string
    slug: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  orgEventCounters: { orgId: string; lastSeq: BigIntColumn }
  members: {
    orgId: string
    id: string
    userId: string
    kind: string
    role: string
    status: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  teams: {
    orgId: string
    id: string
    name: string
    key: string
    description: string | null
    nextNumber: number
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  workflowStates: {
    orgId: string
    id: string
    teamId: string
    name: string
    category: string
    color: string
    description: string | null
    position: number
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  tasks: {
    orgId: string
    id: string
    teamId: string
    number: number
    title: string
    description: string | null
    stateId: string
    assigneeId: string | null
    creatorId: string
    priority: string
    estimate: number | null
    dueDate: string | null
    startDate: string | null
    parentId: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
    startedAt: NullableTimestamp
    completedAt: NullableTimestamp
    canceledAt: NullableTimestamp
    archivedAt: NullableTimestamp
    deletedAt: NullableTimestamp
    cycleId: string | null
  }
  events: {
    orgId: string
    seq: BigIntColumn
    id: string
    kind: string
    actorId: string | null
    resourceType: string
    resourceId: string
    data: JsonColumn
    createdAt: Timestamp
    teamId: string | null
  }
  idempotencyKeys: {
    principalKey: string
    key: string
    operationId: string
    requestHash: string
    status: number
    body: JsonColumn
    etag: string | null
    createdAt: Timestamp
  }
  secrets: { name: string; value: string; createdAt: Timestamp }
  teamMemberships: { orgId: string; teamId: string; actorId: string; createdAt: Timestamp }
  grants: {
    orgId: string
    id: string
    subjectType: string
    subjectId: string
    containerType: string
    containerId: string
    capability: string
    rank: number
    createdBy: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  invitations: {
    orgId: string
    id: string
    email: string
    role: string
    tokenHash: string
    invitedBy: string
    createdAt: Timestamp
    expiresAt: Timestamp
    acceptedAt: NullableTimestamp
    acceptedBy: string | null
    revokedAt: NullableTimestamp
  }
  agents: {
    orgId: string
    id: string
    name: string
    description: string | null
    status: string
    approvalPolicy: JsonColumn
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  agentSessions: {
    orgId: string
    id: string
    agentId: string
    taskId: string | null
    title: string | null
    state: string
    startedBy: string
    lastActivitySeq: number
    createdAt: Timestamp
    updatedAt: Timestamp
    endedAt: NullableTimestamp
  }
  agentActivities: {
    orgId: string
    sessionId: string
    seq: number
    id: string
    kind: string
    content: string
    data: ColumnType<unknown, string | null, string | null>
    createdAt: Timestamp
  }
  approvalRequests: {
    orgId: string
    id: string
    agentId: string
    sessionId: string
    operationId: string
    input: JsonColumn
    capability: string | null
    state: string
    proposedBy: string
    createdAt: Timestamp
    expiresAt: Timestamp
    decidedBy: string | null
    decidedAt: NullableTimestamp
    reason: string | null
    result: ColumnType<unknown, string | null, string | null>
  }
  cycles: {
    orgId: string
    id: string
    teamId: string
    number: number
    name: string | null
    description: string | null
    startsAt: Timestamp
    endsAt: Timestamp
    completedAt: NullableTimestamp
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  cycleSettings: {
    orgId: string
    teamId: string
    /** 0 or 1. */
    enabled: number
    durationWeeks: number
    cooldownWeeks: number
    startWeekday: string
    autoCreateCount: number
    updatedAt: Timestamp
  }
  labels: {
    orgId: string
    id: string
    teamId: string | null
    parentId: string | null
    isGroup: number
    name: string
    nameKey: string
    color: string
    description: string | null
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  taskLabels: { orgId: string; taskId: string; labelId: string; createdBy: string; createdAt: Timestamp }
  comments: {
    orgId: string
    id: string
    taskId: string
    threadId: string
    authorId: string
    body: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
    editedAt: NullableTimestamp
    deletedAt: NullableTimestamp
    resolvedAt: NullableTimestamp
    resolvedById: string | null
  }
  commentRevisions: {
    orgId: string
    id: string
    commentId: string
    body: string
    editorId: string
    createdAt: Timestamp
    replacedAt: Timestamp
  }
  reactions: {
    orgId: string
    id: string
    targetType: string
    targetId: string
    taskId: string
    emoji: string
    actorId: string
    createdAt: Timestamp
  }
  taskHistory: {
    orgId: string
    id: string
    taskId: string
    actorId: string | null
    field: string
    beforeValue: JsonColumn
    afterValue: JsonColumn
    createdAt: Timestamp
  }
  taskDependencies: {
    orgId: string
    blockerId: string
    blockedId: string
    createdBy: string
    createdAt: Timestamp
  }
  taskRelations: {
    orgId: string
    taskId: string
    relatedId: string
    type: string
    createdBy: string
    createdAt: Timestamp
  }
  taskPreviousKeys: { orgId: string; key: string; taskId: string; createdAt: Timestamp }
  taskSubscribers: { orgId: string; taskId: string; actorId: string; createdAt: Timestamp }
  taskLinks: {
    orgId: string
    id: string
    taskId: string
    url: string
    title: string | null
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}

export type Dialect = 'sqlite' | 'postgres'

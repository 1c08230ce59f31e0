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
    createdAt: Timestamp
    updatedAt: Timestamp
    startedAt: NullableTimestamp
    completedAt: NullableTimestamp
    canceledAt: NullableTimestamp
    archivedAt: NullableTimestamp
    deletedAt: NullableTimestamp
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
}

export type Dialect = 'sqlite' | 'postgres'

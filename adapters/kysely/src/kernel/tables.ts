import type { BigIntColumn, JsonColumn, Timestamp } from '../columns.ts'

/** The kernel tables, as queries see them. */
export interface KernelTables {
  orgEventCounters: { orgId: string; lastSeq: BigIntColumn }
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
    recipientId: string | null
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
  protocolSessions: {
    id: string
    userId: string
    protocol: string
    state: JsonColumn
    createdAt: Timestamp
    seenAt: Timestamp
  }
}

import type { ColumnType } from 'kysely'
import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The agents tables, as queries see them. */
export interface AgentsTables {
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
    externalUrl: string | null
    planSummary: string | null
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
  approvalPolicies: {
    orgId: string
    id: string
    containerType: string
    containerId: string
    operations: JsonColumn
    capabilities: JsonColumn
    agentIds: JsonColumn
    approverCapability: string
    version: number
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  approvalRequests: {
    orgId: string
    id: string
    agentId: string
    sessionId: string
    operationId: string
    input: JsonColumn
    capability: string | null
    policyId: string | null
    policyVersion: number | null
    approverCapability: string | null
    state: string
    proposedBy: string
    createdAt: Timestamp
    expiresAt: Timestamp
    decidedBy: string | null
    decidedAt: NullableTimestamp
    reason: string | null
    result: ColumnType<unknown, string | null, string | null>
  }
}

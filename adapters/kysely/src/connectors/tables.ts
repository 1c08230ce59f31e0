import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The connectors tables, as queries see them. Token columns hold ciphertext only. */
export interface ConnectorsTables {
  connections: {
    orgId: string
    id: string
    memberId: string
    userId: string
    providerId: string
    status: string
    scopes: JsonColumn
    state: string | null
    stateExpiresAt: NullableTimestamp
    codeVerifier: string | null
    accessToken: string | null
    refreshToken: string | null
    tokenExpiresAt: NullableTimestamp
    tokenVersion: number
    createdAt: Timestamp
    connectedAt: NullableTimestamp
    lastCheckedAt: NullableTimestamp
    lastError: string | null
  }
  linkedItems: {
    orgId: string
    id: string
    taskId: string | null
    projectId: string | null
    url: string
    providerId: string | null
    itemType: string | null
    title: string | null
    state: string | null
    assignee: string | null
    externalUpdatedAt: NullableTimestamp
    fetchedAt: NullableTimestamp
    creatorId: string
    createdAt: Timestamp
  }
  disabledConnectorProviders: {
    orgId: string
    providerId: string
    disabledBy: string
    disabledAt: Timestamp
  }
  recordProperties: {
    orgId: string
    recordType: string
    recordId: string
    clientKey: string
    key: string
    /** JSON text. */
    value: string
    updatedBy: string
    updatedAt: Timestamp
  }
}

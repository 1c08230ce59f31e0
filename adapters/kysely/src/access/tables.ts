import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The access tables, as queries see them. */
export interface AccessTables {
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
    declinedAt: NullableTimestamp
  }
}

import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The administration tables, as queries see them. */
export interface AdminTables {
  orgSettings: {
    orgId: string
    defaultTeamId: string | null
    invitationPolicy: string
    updatedAt: NullableTimestamp
  }
  orgDomains: {
    orgId: string
    id: string
    domain: string
    status: string
    txtName: string
    txtValue: string
    lastCheckedAt: NullableTimestamp
    lastCheckError: string | null
    verifiedAt: NullableTimestamp
    createdBy: string
    createdAt: Timestamp
  }
}

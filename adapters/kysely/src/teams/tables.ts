import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The teams tables, as queries see them. */
export interface TeamsTables {
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
  teamSettings: {
    orgId: string
    teamId: string
    estimateScale: string
    autoCloseDays: number | null
    autoArchiveDays: number | null
    triageEnabled: number
    defaultStateId: string | null
    triageResponsibility: string
    triageAction: string
    triageMemberIds: JsonColumn
    updatedAt: Timestamp
  }
}

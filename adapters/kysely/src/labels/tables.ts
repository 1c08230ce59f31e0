import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The labels tables, as queries see them. */
export interface LabelsTables {
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
}

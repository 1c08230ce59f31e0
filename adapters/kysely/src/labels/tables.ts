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
  /** Labels on tasks: written through the labels repo (`addToTask`, `removeFromTask`, a label's delete); read by tasks. */
  taskLabels: { orgId: string; taskId: string; labelId: string; createdBy: string; createdAt: Timestamp }
}

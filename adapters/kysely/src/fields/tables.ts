import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** Custom field definitions and their values; `recordKinds`, `teamIds`, `options` and `valueJson` are JSON text. */
export interface CustomFieldsTables {
  customFields: {
    orgId: string
    id: string
    name: string
    description: string | null
    type: string
    recordKinds: string
    teamIds: string
    options: string
    createdAt: Timestamp
    updatedAt: Timestamp
    archivedAt: NullableTimestamp
  }
  customFieldValues: {
    orgId: string
    recordKind: string
    recordId: string
    fieldId: string
    valueText: string | null
    valueNumber: number | null
    valueJson: string | null
    updatedAt: Timestamp
  }
}

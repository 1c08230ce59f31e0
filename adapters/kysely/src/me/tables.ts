import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The person's own tables, as queries see them. */
export interface MeTables {
  userPreferences: {
    userId: string
    defaultOrgId: string | null
    weekStart: string
    notificationDelivery: string
    digestHour: number
    /** JSON text: the kinds set explicitly. */
    mailKinds: string
    dateFormat: string
    updatedAt: Timestamp
  }
  favorites: {
    userId: string
    id: string
    orgId: string
    recordType: string
    recordId: string
    position: number
    createdAt: Timestamp
  }
  planItems: {
    userId: string
    id: string
    date: string
    position: number
    kind: string
    orgId: string | null
    taskId: string | null
    text: string | null
    timeStart: string | null
    timeEnd: string | null
    estimateMinutes: number | null
    source: string
    carriedFrom: string | null
    carryCount: number
    doneAt: NullableTimestamp
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}

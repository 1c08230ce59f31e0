import type { Timestamp } from '../columns.ts'

/** The person's own tables, as queries see them. */
export interface MeTables {
  userPreferences: {
    userId: string
    defaultOrgId: string | null
    weekStart: string
    notificationDelivery: string
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
}

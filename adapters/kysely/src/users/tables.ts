import type { Timestamp } from '../columns.ts'

/** The users tables, as queries see them. */
export interface UsersTables {
  users: {
    id: string
    email: string
    name: string
    createdAt: Timestamp
    avatarUrl: string | null
    timeZone: string | null
    locale: string | null
  }
  awayPeriods: {
    userId: string
    id: string
    startDate: string
    endDate: string
    note: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}

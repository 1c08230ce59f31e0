import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The time-tracking tables, as queries see them. */
export interface TimeTables {
  timeEntries: {
    orgId: string
    id: string
    taskId: string
    memberId: string
    minutes: number
    date: string
    week: string
    note: string | null
    source: string
    startedAt: NullableTimestamp
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  timers: {
    userId: string
    orgId: string
    memberId: string
    taskId: string
    note: string | null
    startedAt: Timestamp
  }
  allocations: {
    orgId: string
    id: string
    projectId: string
    memberId: string
    startDate: string
    endDate: string
    unit: string
    amount: number
    note: string | null
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
}

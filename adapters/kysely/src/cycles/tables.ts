import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The cycles tables, as queries see them. */
export interface CyclesTables {
  cycles: {
    orgId: string
    id: string
    teamId: string
    number: number
    name: string | null
    description: string | null
    startsAt: Timestamp
    endsAt: Timestamp
    completedAt: NullableTimestamp
    archivedAt: NullableTimestamp
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  cycleSettings: {
    orgId: string
    teamId: string
    /** 0 or 1. */
    enabled: number
    durationWeeks: number
    cooldownWeeks: number
    startWeekday: string
    autoCreateCount: number
    updatedAt: Timestamp
  }
}

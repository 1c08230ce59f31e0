import type { Timestamp } from '../columns.ts'

/** The triage tables, as queries see them (team settings live with the teams tables). */
export interface TriageTables {
  triageSnoozes: {
    orgId: string
    taskId: string
    snoozedUntil: Timestamp
    snoozedBy: string
  }
}

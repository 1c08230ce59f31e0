import type { JsonColumn, Timestamp } from '../columns.ts'

/** Automation rules, their run logs and the rule engine's place in each event log. */
export interface RulesTables {
  automationRules: {
    orgId: string
    id: string
    teamId: string
    name: string
    enabled: number
    trigger: JsonColumn
    conditions: JsonColumn
    actions: JsonColumn
    authorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  automationRuns: {
    orgId: string
    id: string
    ruleId: string
    taskId: string
    eventId: string
    outcome: string
    error: string | null
    depth: number
    createdAt: Timestamp
  }
  ruleEnginePositions: { orgId: string; seq: number | string }
  /** Events a rule run wrote, with the run's depth (loop protection). */
  ruleEventOrigins: { orgId: string; eventId: string; depth: number }
  /** Due dates the due-date pass wrote a `task.due_date_passed` event for, once each. */
  ruleDueMarks: { orgId: string; taskId: string; dueDate: string }
}

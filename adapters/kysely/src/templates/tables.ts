import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** Templates, recurring work with its occurrences, and task reminders, as queries see them. */
export interface TemplatesTables {
  templates: {
    orgId: string
    id: string
    teamId: string
    kind: string
    name: string
    description: string | null
    task: JsonColumn | null
    project: JsonColumn | null
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  recurrences: {
    orgId: string
    id: string
    teamId: string
    templateId: string
    name: string
    schedule: JsonColumn
    startDate: string
    nextOccurrence: string | null
    lastOccurrence: string | null
    pausedAt: NullableTimestamp
    creatorId: string
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  recurrenceOccurrences: {
    orgId: string
    recurrenceId: string
    date: string
    taskId: string | null
    createdAt: Timestamp
  }
  taskReminders: {
    orgId: string
    id: string
    taskId: string
    memberId: string
    remindAt: Timestamp
    note: string | null
    deliveredAt: NullableTimestamp
    createdAt: Timestamp
  }
}

import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The status updates tables, as queries see them. */
export interface UpdatesTables {
  statusUpdates: {
    orgId: string
    id: string
    subjectType: string
    subjectId: string
    body: string
    health: string
    authorId: string
    progressTasks: number | null
    progressCompletedTasks: number | null
    progressCompletedRatio: number | null
    createdAt: Timestamp
    updatedAt: Timestamp
    editedAt: NullableTimestamp
    archivedAt: NullableTimestamp
  }
  statusUpdateRevisions: {
    orgId: string
    id: string
    updateId: string
    body: string
    health: string
    editorId: string
    replacedAt: Timestamp
  }
  updateSettings: {
    orgId: string
    subjectType: string
    everyWeeks: number
    weekday: string
    hour: number
    updatedAt: Timestamp
  }
  updateRequests: {
    orgId: string
    id: string
    subjectType: string
    subjectId: string
    requesterId: string
    recipientId: string
    note: string | null
    createdAt: Timestamp
  }
}

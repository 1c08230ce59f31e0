import type { JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The tasks tables, as queries see them. */
export interface TasksTables {
  tasks: {
    orgId: string
    id: string
    teamId: string
    number: number
    title: string
    description: string | null
    stateId: string
    assigneeId: string | null
    creatorId: string
    priority: string
    estimate: number | null
    dueDate: string | null
    startDate: string | null
    parentId: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
    startedAt: NullableTimestamp
    completedAt: NullableTimestamp
    canceledAt: NullableTimestamp
    archivedAt: NullableTimestamp
    deletedAt: NullableTimestamp
    cycleId: string | null
    projectId: string | null
    milestoneId: string | null
    /** The task's place in its board column (its state); always set (NOT NULL on Postgres). */
    boardRank: string
    /** Its place in its project; set while it is in one. */
    projectRank: string | null
    /** Its place in its cycle; set while it is in one. */
    cycleRank: string | null
  }
  taskHistory: {
    orgId: string
    id: string
    taskId: string
    actorId: string | null
    /** `autoClose`, `autoArchive` or a rule's id: what acted, when not a person or agent alone. */
    automation: string | null
    field: string
    beforeValue: JsonColumn
    afterValue: JsonColumn
    createdAt: Timestamp
  }
  taskDependencies: {
    orgId: string
    blockerId: string
    blockedId: string
    createdBy: string
    createdAt: Timestamp
  }
  taskRelations: {
    orgId: string
    taskId: string
    relatedId: string
    type: string
    createdBy: string
    createdAt: Timestamp
  }
  taskPreviousKeys: { orgId: string; key: string; taskId: string; createdAt: Timestamp }
  taskSubscribers: { orgId: string; taskId: string; actorId: string; createdAt: Timestamp }
  /**
   * SQLite only (migration 0072): a view storing nothing, whose insert routes each row by `kind` to
   * `taskLabels` (`ref` the label), `customFieldValues` (`ref` the field), `taskHistory` or
   * `taskSubscribers` (`ref` the actor), so a new task's rows are one statement.
   */
  newTaskRows: {
    kind: 'label' | 'field' | 'history' | 'subscriber'
    orgId: string
    taskId: string
    ref: string | null
    actorId: string | null
    automation: string | null
    id: string | null
    field: string | null
    beforeValue: string | null
    afterValue: string | null
    valueText: string | null
    valueNumber: number | null
    valueJson: string | null
    createdAt: string
  }
}

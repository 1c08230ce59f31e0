import type { TaskHistoryEntry } from '@workgraph/core'
import type { TaskHistoryRecord, TaskHistoryRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { historyRepo } from '../../history.ts'
import type { Database } from '../../schema.ts'

/** The task history table: `automation` names what acted when it was not a person or agent alone. */
export const TASK_HISTORY = { table: 'taskHistory', holder: 'taskId', extra: ['automation'] } as const

/** A task's field changes. */
export const taskHistoryRepo = (db: Kysely<Database>): TaskHistoryRepo =>
  historyRepo<'taskId', TaskHistoryRecord, TaskHistoryEntry>(db, TASK_HISTORY)

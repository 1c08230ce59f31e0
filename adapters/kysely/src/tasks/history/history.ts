import type { TaskHistoryEntry } from '@workgraph/core'
import type { TaskHistoryRecord, TaskHistoryRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { historyRepo } from '../../history.ts'
import type { Database } from '../../schema.ts'

/** A task's field changes; `automation` names what acted when it was not a person or agent alone. */
export const taskHistoryRepo = (db: Kysely<Database>): TaskHistoryRepo =>
  historyRepo<'taskId', TaskHistoryRecord, TaskHistoryEntry>(db, {
    table: 'taskHistory',
    holder: 'taskId',
    extra: ['automation'],
  })

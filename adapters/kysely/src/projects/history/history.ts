import type { ProjectHistoryEntry } from '@workgraph/core'
import type { ProjectHistoryRecord, ProjectHistoryRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { historyRepo } from '../../history.ts'
import type { Database } from '../../schema.ts'

/** A project's field changes. */
export const projectHistoryRepo = (db: Kysely<Database>): ProjectHistoryRepo =>
  historyRepo<'projectId', ProjectHistoryRecord, ProjectHistoryEntry>(db, {
    table: 'projectHistory',
    holder: 'projectId',
  })

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { insightsRepo } from './insights.ts'

/** Aggregates over tasks for the insights reads. */
export const insightsStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({ insights: insightsRepo(db, dialect) }) satisfies Partial<Store>

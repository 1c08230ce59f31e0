import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { hubReadRepo } from './reads.ts'

/** The hub's per-workspace reads (search, activity). */
export const hubStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({ hubReads: hubReadRepo(db, dialect) }) satisfies Partial<Store>

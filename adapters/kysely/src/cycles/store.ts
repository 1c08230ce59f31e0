import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { cycleRepo } from './cycles.ts'

/** Cycles and cadences. */
export const cyclesStore = (db: Kysely<Database>, purge: Purge) =>
  ({
    cycles: cycleRepo(db, purge),
  }) satisfies Partial<Store>

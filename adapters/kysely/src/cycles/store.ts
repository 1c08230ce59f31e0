import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { cycleRepo } from './cycles.ts'

/** Cycles and cadences. */
export const cyclesStore = (db: Kysely<Database>) =>
  ({
    cycles: cycleRepo(db),
  }) satisfies Partial<Store>

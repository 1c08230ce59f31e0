import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { allocationRepo } from './allocations.ts'
import { timeEntryRepo } from './entries.ts'
import { timerRepo } from './timers.ts'

/** Logged time, personal timers and allocations. */
export const timeStore = (db: Kysely<Database>) =>
  ({
    timeEntries: timeEntryRepo(db),
    timers: timerRepo(db),
    allocations: allocationRepo(db),
  }) satisfies Partial<Store>

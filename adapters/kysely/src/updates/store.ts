import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { updateDueRepo, updateRequestRepo, updateSettingsRepo } from './cadence.ts'
import { updateRepo } from './updates.ts'

/** Status updates and their edit history; the org's cadences, what is due and requests for updates. */
export const updatesStore = (db: Kysely<Database>, purge: Purge) =>
  ({
    updates: updateRepo(db, purge),
    updateSettings: updateSettingsRepo(db),
    updateDue: updateDueRepo(db),
    updateRequests: updateRequestRepo(db),
  }) satisfies Partial<Store>

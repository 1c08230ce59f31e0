import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { updateDueRepo, updateRequestRepo, updateSettingsRepo } from './cadence.ts'
import { updateRepo } from './updates.ts'

/** Status updates and their edit history; the org's cadences, what is due and requests for updates. */
export const updatesStore = (db: Kysely<Database>) =>
  ({
    updates: updateRepo(db),
    updateSettings: updateSettingsRepo(db),
    updateDue: updateDueRepo(db),
    updateRequests: updateRequestRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { updateRepo } from './updates.ts'

/** Status updates and their edit history. */
export const updatesStore = (db: Kysely<Database>) => ({ updates: updateRepo(db) }) satisfies Partial<Store>

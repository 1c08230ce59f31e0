import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { exportRepo, importRepo } from './transfers.ts'

/** Workspace exports and imports. */
export const transfersStore = (db: Kysely<Database>) =>
  ({ exports: exportRepo(db), imports: importRepo(db) }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { viewRepo } from './views.ts'

/** Saved views. */
export const viewsStore = (db: Kysely<Database>) =>
  ({
    views: viewRepo(db),
  }) satisfies Partial<Store>

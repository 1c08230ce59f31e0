import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { viewPreferenceRepo } from './preferences.ts'
import { viewRepo } from './views.ts'

/** Saved views and their display preferences. */
export const viewsStore = (db: Kysely<Database>) =>
  ({
    views: viewRepo(db),
    viewPreferences: viewPreferenceRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { favoriteRepo } from './favorites.ts'
import { preferenceRepo } from './preferences.ts'

/** The person's own data: preferences and favorites. */
export const meStore = (db: Kysely<Database>) =>
  ({
    preferences: preferenceRepo(db),
    favorites: favoriteRepo(db),
  }) satisfies Partial<Store>

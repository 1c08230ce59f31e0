import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { favoriteRepo } from './favorites/favorites.ts'
import { planItemRepo } from './plan/plan.ts'
import { preferenceRepo } from './preferences.ts'

/** The person's own data: preferences, favorites and the daily plan. */
export const meStore = (db: Kysely<Database>) =>
  ({
    preferences: preferenceRepo(db),
    favorites: favoriteRepo(db),
    planItems: planItemRepo(db),
  }) satisfies Partial<Store>

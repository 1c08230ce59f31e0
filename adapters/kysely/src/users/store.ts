import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { userRepo } from './users.ts'

/** People's accounts. */
export const usersStore = (db: Kysely<Database>) =>
  ({
    users: userRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { awayRepo } from './away.ts'
import { userRepo } from './users.ts'

/** People's accounts and their away periods. */
export const usersStore = (db: Kysely<Database>) =>
  ({
    users: userRepo(db),
    away: awayRepo(db),
  }) satisfies Partial<Store>

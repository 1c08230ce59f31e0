import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { connectionRepo } from './connections.ts'
import { linkedItemRepo } from './linked-items.ts'

/** Connections to other tools and the items linked through them. */
export const connectorsStore = (db: Kysely<Database>) =>
  ({
    connections: connectionRepo(db),
    linkedItems: linkedItemRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { connectionRepo } from './connections.ts'
import { linkedItemRepo } from './linked-items.ts'
import { connectorSettingsRepo, recordPropertyRepo } from './record-properties.ts'

/** Connections to other tools and the items linked through them. */
export const connectorsStore = (db: Kysely<Database>) =>
  ({
    connections: connectionRepo(db),
    linkedItems: linkedItemRepo(db),
    connectorSettings: connectorSettingsRepo(db),
    recordProperties: recordPropertyRepo(db),
  }) satisfies Partial<Store>

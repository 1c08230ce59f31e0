import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database, Dialect } from '../schema.ts'
import { documentRepo } from './documents.ts'
import { documentSubscriberRepo } from './subscribers.ts'

/** Documents, their content versions and subscribers. */
export const documentsStore = (db: Kysely<Database>, dialect: Dialect, purge: Purge) =>
  ({
    documents: documentRepo(db, dialect, purge),
    documentSubscribers: documentSubscriberRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { resourceLinkRepo } from './resource-links.ts'

/** URL resources of projects, programs and initiatives. */
export const linksStore = (db: Kysely<Database>) =>
  ({ resourceLinks: resourceLinkRepo(db) }) satisfies Partial<Store>

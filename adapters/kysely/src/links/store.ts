import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { linkRepo } from './resource-links.ts'

/** URL links of tasks, projects, programs and initiatives (the `resource_links` table). */
export const linksStore = (db: Kysely<Database>) => ({ links: linkRepo(db) }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { initiativeRepo } from './initiatives.ts'

/** Initiatives, their hierarchy, links, members and history. */
export const initiativesStore = (db: Kysely<Database>) =>
  ({ initiatives: initiativeRepo(db) }) satisfies Partial<Store>

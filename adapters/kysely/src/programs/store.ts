import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { programRepo } from './programs.ts'

/** Programs with their projects, members and teams. */
export const programsStore = (db: Kysely<Database>) =>
  ({ programs: programRepo(db) }) satisfies Partial<Store>

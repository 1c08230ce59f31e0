import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { initiativeProgramRepo } from './initiatives/initiative-programs.ts'
import { programRepo } from './programs.ts'

/** Programs with their projects, members and teams, and the programs each initiative includes. */
export const programsStore = (db: Kysely<Database>, purge: Purge) =>
  ({
    programs: programRepo(db, purge),
    initiativePrograms: initiativeProgramRepo(db),
  }) satisfies Partial<Store>

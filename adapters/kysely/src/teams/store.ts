import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { stateRepo, teamRepo } from './teams.ts'

/** Teams and their workflow states. */
export const teamsStore = (db: Kysely<Database>) =>
  ({
    teams: teamRepo(db),
    states: stateRepo(db),
  }) satisfies Partial<Store>

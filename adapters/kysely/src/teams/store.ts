import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { teamSettingsRepo } from './settings.ts'
import { stateRepo, teamRepo } from './teams.ts'

/** Teams, their workflow states and settings. */
export const teamsStore = (db: Kysely<Database>) =>
  ({
    teams: teamRepo(db),
    states: stateRepo(db),
    teamSettings: teamSettingsRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { memberRepo, orgRepo } from './orgs.ts'

/** Workspaces and their members. */
export const orgsStore = (db: Kysely<Database>) =>
  ({
    orgs: orgRepo(db),
    members: memberRepo(db),
  }) satisfies Partial<Store>

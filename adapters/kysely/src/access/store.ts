import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { accessRepo, invitationRepo } from './access.ts'

/** Grants, team memberships and invitations. */
export const accessStore = (db: Kysely<Database>) =>
  ({
    access: accessRepo(db),
    invitations: invitationRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { accessRepo, invitationRepo } from './access.ts'

/** Grants, team memberships and invitations. */
export const accessStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({
    access: accessRepo(db, dialect),
    invitations: invitationRepo(db),
  }) satisfies Partial<Store>

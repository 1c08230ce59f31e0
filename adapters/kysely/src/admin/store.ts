import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { auditLogRepo, domainRepo, orgSettingsRepo } from './admin.ts'

/** Workspace settings, email domains and the audit log (a read of the event log). */
export const adminStore = (db: Kysely<Database>) =>
  ({
    orgSettings: orgSettingsRepo(db),
    domains: domainRepo(db),
    auditLog: auditLogRepo(db),
  }) satisfies Partial<Store>

import type { DomainId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { AuditEntry, Domain, OrgSettings } from './schemas.ts'

export interface OrgSettingsRepo {
  /** The stored settings; null while the workspace uses the defaults. */
  get(orgId: OrgId): Promise<OrgSettings | null>
  /** Inserts or replaces the org's settings row. */
  put(settings: OrgSettings): Promise<void>
}

export interface DomainRepo {
  /** Under concurrent inserts of one name in one org, exactly one succeeds; the others get false. */
  insert(domain: Domain): Promise<boolean>
  get(orgId: OrgId, id: DomainId): Promise<Domain | null>
  /** The org's domains by name (then id). */
  list(orgId: OrgId, filter: { status?: Domain['status'] }, page: PageRequest<'domain'>): Promise<Domain[]>
  update(
    orgId: OrgId,
    id: DomainId,
    patch: Pick<Domain, 'status' | 'lastCheckedAt' | 'lastCheckError' | 'verifiedAt'>,
  ): Promise<void>
  delete(orgId: OrgId, id: DomainId): Promise<void>
  /** Whether `domain` is a verified domain of the org. */
  isVerified(orgId: OrgId, domain: string): Promise<boolean>
}

export interface AuditFilter {
  /** Event kinds to read (already narrowed to administrative ones by the service). */
  kinds: readonly string[]
  actorId?: string
  resourceId?: string
  /** Inclusive lower and exclusive upper bound on `createdAt`. */
  since?: string
  until?: string
}

export interface AuditLogRepo {
  /** Events of those kinds from the org's log, newest first (by `seq`). */
  list(orgId: OrgId, filter: AuditFilter, page: PageRequest<'seq'>): Promise<Omit<AuditEntry, 'category'>[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Workspace settings (one row per org, absent while default). */
    orgSettings: OrgSettingsRepo
    /** Email domains of a workspace, verified by DNS. */
    domains: DomainRepo
    /** Administrative changes, read from the event log. */
    auditLog: AuditLogRepo
  }
}

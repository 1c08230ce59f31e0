import { currentOrg } from '../kernel/context.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { AuditCategory, AuditEntry } from './schemas.ts'
import type { AuditFilter } from './storage.ts'

/**
 * The event kinds that are administrative changes, by category. The audit log is these events of
 * the workspace log: they carry who, what, when and the changed fields, written in the same
 * transaction as the change, so nothing is recorded twice and nothing committed is missed.
 */
export const AUDIT_KINDS: Readonly<Record<AuditCategory, readonly string[]>> = {
  org: ['org.created', 'org.updated', 'org.archived', 'org.restored'],
  settings: ['org_settings.updated'],
  domains: ['domain.created', 'domain.verified', 'domain.check_failed', 'domain.deleted'],
  members: ['member.created', 'member.updated', 'member.deactivated', 'member.reactivated', 'member.removed'],
  invitations: ['invitation.created', 'invitation.revoked'],
  grants: ['grant.created', 'grant.updated', 'grant.deleted'],
  teams: ['team.member_added', 'team.member_removed'],
  agents: ['agent.created', 'agent.updated', 'agent.deactivated', 'agent.reactivated'],
  connectors: ['connection.created', 'connection.connected', 'connection.deleted'],
  transfers: ['export.created', 'export.completed', 'import.created', 'import.completed', 'import.failed'],
}

const CATEGORY_OF = new Map(
  Object.entries(AUDIT_KINDS).flatMap(([category, kinds]) =>
    kinds.map((k) => [k, category as AuditCategory]),
  ),
)

export interface AuditQuery {
  cursor?: string
  limit?: number
  category?: AuditCategory
  kind?: string
  actorId?: string
  resourceId?: string
  since?: string
  until?: string
}

/** Administrative changes, newest first; filters and paging are one query on the event log. */
export async function listAuditLog(ctx: OperationContext, query: AuditQuery): Promise<Page<AuditEntry>> {
  const orgId = currentOrg(ctx).id
  let kinds = query.category ? AUDIT_KINDS[query.category] : [...CATEGORY_OF.keys()]
  if (query.kind) {
    if (!CATEGORY_OF.has(query.kind)) {
      throw new ProblemError('validation_failed', `\`${query.kind}\` is not an administrative event kind.`, {
        errors: [{ pointer: '/query/kind', message: `One of: ${[...CATEGORY_OF.keys()].join(', ')}` }],
      })
    }
    kinds = kinds.filter((k) => k === query.kind)
  }
  if (query.since && query.until && query.since >= query.until) {
    throw new ProblemError('rule_violated', '`since` must be before `until`.', {
      errors: [{ pointer: '/query/until', message: 'Not after since' }],
    })
  }
  const filter: AuditFilter = { kinds }
  if (query.actorId) filter.actorId = query.actorId
  if (query.resourceId) filter.resourceId = query.resourceId
  if (query.since) filter.since = new Date(query.since).toISOString()
  if (query.until) filter.until = new Date(query.until).toISOString()
  const page = await readPage(ctx, {
    scope: ['auditLog.list', orgId, filter],
    query,
    sort: 'seq',
    direction: 'desc',
    keyOf: (e: Omit<AuditEntry, 'category'>) => e.seq,
    fetch: (p) => ctx.store.auditLog.list(orgId, filter, p),
  })
  return {
    data: page.data.map((e) => ({ ...e, category: CATEGORY_OF.get(e.kind)! })),
    nextCursor: page.nextCursor,
  }
}

import { createHash } from 'node:crypto'
import { currentOrg } from '../kernel/context.ts'
import { type DomainId, newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { checkTxtRecord, VERIFICATION_LABEL } from './dns.ts'
import type { Domain } from './schemas.ts'
import { getOrgSettings } from './settings.ts'

export async function listDomains(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; status?: Domain['status'] },
): Promise<Page<Domain>> {
  const orgId = currentOrg(ctx).id
  const filter = query.status ? { status: query.status } : {}
  return readPage(ctx, {
    scope: ['domains.list', orgId, filter],
    query,
    sort: 'domain',
    direction: 'asc',
    keyOf: (d: Domain) => d.domain,
    fetch: (page) => ctx.store.domains.list(orgId, filter, page),
  })
}

export async function requireDomain(ctx: OperationContext, id: DomainId): Promise<Domain> {
  const domain = await ctx.store.domains.get(currentOrg(ctx).id, id)
  if (!domain) throw notFound('Domain')
  return domain
}

/**
 * Adds a domain in `pending` state with the TXT record to publish. The value is derived from the
 * domain's own id, so it is unique per workspace and domain and reveals nothing else.
 */
export async function createDomain(ctx: OperationContext, input: { domain: string }): Promise<Domain> {
  const orgId = currentOrg(ctx).id
  const name = input.domain.toLowerCase()
  const id = newId('DomainId')
  const token = createHash('sha256').update(`${orgId}:${id}:${name}`).digest('base64url').slice(0, 32)
  const domain: Domain = {
    id,
    orgId,
    domain: name,
    status: 'pending',
    txtRecord: {
      name: `${VERIFICATION_LABEL}.${name}`,
      type: 'TXT',
      value: `workgraph-verification=${token}`,
    },
    lastCheckedAt: null,
    lastCheckError: null,
    verifiedAt: null,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
  }
  if (!(await ctx.store.domains.insert(domain))) {
    throw new ProblemError('already_exists', `${name} is already a domain of this workspace.`, {
      errors: [{ pointer: '/body/domain', message: 'Already added' }],
    })
  }
  ctx.emit({ kind: 'domain.created', resourceType: 'domain', resourceId: id, data: { domain } })
  return domain
}

/**
 * Looks the TXT record up through the configured resolver. Found: the domain becomes `verified`
 * (for good). Not found: it stays as it was, with the reason in `lastCheckError`. A verified
 * domain is not checked again (removing the record later does not unverify it).
 */
export async function verifyDomain(ctx: OperationContext, id: DomainId): Promise<Domain> {
  const domain = await requireDomain(ctx, id)
  if (domain.status === 'verified') return domain
  const error = await checkTxtRecord(ctx.config.dns, domain.txtRecord.name, domain.txtRecord.value)
  const patch = {
    status: error ? ('pending' as const) : ('verified' as const),
    lastCheckedAt: ctx.now,
    lastCheckError: error,
    verifiedAt: error ? null : ctx.now,
  }
  await ctx.store.domains.update(domain.orgId, domain.id, patch)
  const next = { ...domain, ...patch }
  ctx.emit({
    kind: error ? 'domain.check_failed' : 'domain.verified',
    resourceType: 'domain',
    resourceId: id,
    data: { domain: next },
  })
  return next
}

export async function deleteDomain(ctx: OperationContext, id: DomainId): Promise<void> {
  const domain = await requireDomain(ctx, id)
  if (domain.status === 'verified') await keepOneVerifiedDomain(ctx, domain)
  await ctx.store.domains.delete(domain.orgId, domain.id)
  ctx.emit({
    kind: 'domain.deleted',
    resourceType: 'domain',
    resourceId: id,
    data: { id, domain: domain.domain, status: domain.status },
  })
}

/** Under the `verified_domains` invitation policy, the last verified domain cannot go. */
async function keepOneVerifiedDomain(ctx: OperationContext, domain: Domain): Promise<void> {
  if ((await getOrgSettings(ctx)).invitationPolicy !== 'verified_domains') return
  const page = { sort: 'domain' as const, direction: 'asc' as const, after: null, limit: 2 }
  const verified = await ctx.store.domains.list(domain.orgId, { status: 'verified' }, page)
  if (verified.length > 1) return
  throw new ProblemError(
    'conflict',
    'This is the last verified domain and invitations are limited to verified domains: change `invitationPolicy` first.',
  )
}

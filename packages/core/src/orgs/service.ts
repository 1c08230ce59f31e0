import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { OrgId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { awayToday } from '../users/away.ts'
import type { Member, Org } from './schemas.ts'

export interface CreateOrgInput {
  name: string
  slug?: string
}

/** Creates a workspace with the caller as its owner. */
export async function createOrg(ctx: OperationContext, input: CreateOrgInput): Promise<Org> {
  const user = ctx.principal && (await ctx.store.users.get(ctx.principal.userId))
  if (!user) throw new ProblemError('unauthenticated', 'The account behind this token no longer exists.')
  // Two workspaces named alike at the same moment take `acme` and `acme-2`, not a 409: creates
  // with the same base slug run one after the other.
  const base = input.slug ?? slugify(input.name)
  await ctx.store.locks.acquire(`org-slug:${base}`)
  const slug = input.slug ?? (await freeSlug(ctx, base))
  if (await ctx.store.orgs.slugTaken(slug)) {
    throw new ProblemError('key_taken', `The slug \`${slug}\` is taken.`, {
      errors: [{ pointer: '/body/slug', message: 'Already taken' }],
    })
  }
  const org: Org = {
    id: newId('OrgId'),
    name: input.name,
    slug,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.orgs.insert(org)
  const member = {
    id: newId('MemberId'),
    orgId: org.id,
    userId: user.id,
    kind: 'person' as const,
    role: 'owner' as const,
    status: 'active' as const,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.members.insert(member)
  ctx.emit({ kind: 'org.created', resourceType: 'org', resourceId: org.id, data: { org } }, org.id)
  ctx.emit(
    {
      kind: 'member.created',
      resourceType: 'member',
      resourceId: member.id,
      data: { member: { ...member, name: user.name, email: user.email } },
    },
    org.id,
  )
  return org
}

export async function listMyOrgs(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Org>> {
  const userId = ctx.principal!.userId
  return readPage(ctx, {
    scope: ['orgs.list', userId],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (o: Org) => o.id,
    fetch: (page) => ctx.store.orgs.listForUser(userId, page),
  })
}

export async function updateOrg(
  ctx: OperationContext,
  patch: { name?: string; slug?: string },
): Promise<Org> {
  const org = currentOrg(ctx)
  if (patch.slug && patch.slug !== org.slug && (await ctx.store.orgs.slugTaken(patch.slug))) {
    throw new ProblemError('key_taken', `The slug \`${patch.slug}\` is taken.`, {
      errors: [{ pointer: '/body/slug', message: 'Already taken' }],
    })
  }
  return changeOrg(ctx, org, { ...patch, updatedAt: ctx.now }, 'org.updated')
}

export async function archiveOrg(ctx: OperationContext): Promise<Org> {
  const org = currentOrg(ctx)
  if (org.archivedAt) return org
  return changeOrg(ctx, org, { archivedAt: ctx.now, updatedAt: ctx.now }, 'org.archived')
}

export async function restoreOrg(ctx: OperationContext): Promise<Org> {
  const org = currentOrg(ctx)
  if (!org.archivedAt) return org
  return changeOrg(ctx, org, { archivedAt: null, updatedAt: ctx.now }, 'org.restored')
}

async function changeOrg(ctx: OperationContext, org: Org, patch: Partial<Org>, kind: string): Promise<Org> {
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => k !== 'updatedAt' && org[k as keyof Org] !== v),
  )
  if (Object.keys(changed).length === 0) return org
  await ctx.store.orgs.update(org.id, patch)
  const next = { ...org, ...patch }
  ctx.emit({
    kind,
    resourceType: 'org',
    resourceId: org.id,
    data: { org: next, changes: changesOf(org, changed) },
  })
  return next
}

export async function listMembers(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; status?: Member['status'] },
): Promise<Page<Member>> {
  const orgId = currentOrg(ctx).id
  const filter = query.status ? { status: query.status } : {}
  const page = await readPage(ctx, {
    scope: ['members.list', orgId, filter],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (m: Member) => m.id,
    fetch: (page) => ctx.store.members.list(orgId, filter, page),
  })
  return { data: await withAway(ctx, page.data), nextCursor: page.nextCursor }
}

/** Adds `away` to the active members who are away today (on their own calendar). */
async function withAway(ctx: OperationContext, members: Member[]): Promise<Member[]> {
  const away = await awayToday(
    ctx,
    members.filter((m) => m.status === 'active').map((m) => m.userId),
  )
  return members.map((m) => {
    const now = m.status === 'active' ? away.get(m.userId) : undefined
    return now ? { ...m, away: now } : m
  })
}

export async function getMember(
  ctx: OperationContext,
  orgId: OrgId,
  memberId: Member['id'],
): Promise<Member> {
  const member = await ctx.store.members.get(orgId, memberId)
  if (!member || member.status === 'removed') throw notFound('Member')
  return (await withAway(ctx, [member]))[0]!
}

function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
  return base.length > 0 ? base.replace(/-+$/, '') : 'workspace'
}

async function freeSlug(ctx: OperationContext, base: string): Promise<string> {
  if (!(await ctx.store.orgs.slugTaken(base))) return base
  for (let n = 2; n < 50; n++) if (!(await ctx.store.orgs.slugTaken(`${base}-${n}`))) return `${base}-${n}`
  return `${base}-${newId('OrgId').slice(-6).toLowerCase()}`
}

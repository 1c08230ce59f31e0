import type { OrgRole } from '../../kernel/capabilities.ts'
import type { MemberId, OrgId, UserId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import type { ProfilePatch } from '../../users/storage.ts'
import type { Profile } from '../schemas.ts'

const PAGE = 200

export function callerId(ctx: OperationContext): UserId {
  if (!ctx.principal)
    throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')
  return ctx.principal.userId
}

export async function requireProfile(ctx: OperationContext): Promise<Profile> {
  const profile = await ctx.store.users.getProfile(callerId(ctx))
  if (!profile) throw notFound('User')
  return profile
}

/** The person's active memberships, by org id (one page of orgs at a time; people rarely have many). */
export async function activeMemberships(ctx: OperationContext) {
  const userId = callerId(ctx)
  const out: Array<{ orgId: OrgId; orgName: string; memberId: MemberId; role: OrgRole }> = []
  let after: { value: string; id: string } | null = null
  for (;;) {
    const orgs = await ctx.store.orgs.listForUser(userId, {
      sort: 'id',
      direction: 'asc',
      after,
      limit: PAGE,
    })
    for (const org of orgs.slice(0, PAGE)) {
      const member = await ctx.store.members.findByUser(org.id, userId)
      if (member?.status === 'active')
        out.push({ orgId: org.id, orgName: org.name, memberId: member.id, role: member.role })
    }
    if (orgs.length <= PAGE) return out
    const last = orgs[PAGE - 1]!
    after = { value: last.id, id: last.id }
  }
}

export async function whoAmI(ctx: OperationContext) {
  const principal = ctx.principal!
  const user = await requireProfile(ctx)
  const grant = principal.clientId ? await ctx.store.oauth.getGrant(user.id, principal.clientId) : null
  return {
    user,
    memberships: await activeMemberships(ctx),
    token: {
      scopes: [...principal.scopes].sort(),
      clientId: principal.clientId ?? null,
      clientName: grant?.clientName ?? null,
      resource: principal.audience ?? null,
      expiresAt: principal.expiresAt ?? null,
    },
  }
}

export interface ProfileInput {
  name?: string
  avatarUrl?: string | null
  timeZone?: string | null
  locale?: string | null
}

/** Changes the person's own profile; the time zone and locale are checked and canonicalised. */
export async function updateProfile(ctx: OperationContext, input: ProfileInput): Promise<Profile> {
  const current = await requireProfile(ctx)
  const patch: ProfilePatch = {}
  if (input.name !== undefined) {
    const name = input.name.trim()
    if (!name) throw invalid('name', 'The name must not be blank')
    patch.name = name
  }
  if (input.avatarUrl !== undefined) patch.avatarUrl = input.avatarUrl
  if (input.timeZone !== undefined)
    patch.timeZone = input.timeZone === null ? null : canonicalTimeZone(input.timeZone)
  if (input.locale !== undefined) patch.locale = input.locale === null ? null : canonicalLocale(input.locale)
  await ctx.store.users.updateProfile(current.id, patch)
  return requireProfile(ctx)
}

// IANA names are `Area/Location` (or a bare `UTC`); offsets like `+01:00` are not zones people live in.
// The schema states this shape too (me/schemas.ts); the zone database then says which names exist.
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/

export function canonicalTimeZone(value: string): string {
  if (ZONE_NAME.test(value)) {
    try {
      return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone
    } catch {
      // Falls through to the problem below.
    }
  }
  throw invalid('timeZone', `Not an IANA time zone: ${JSON.stringify(value)} (for example Europe/Paris)`)
}

export function canonicalLocale(value: string): string {
  try {
    const [canonical] = Intl.getCanonicalLocales(value)
    if (canonical) return canonical
  } catch {
    // Falls through to the problem below.
  }
  throw invalid('locale', `Not a BCP 47 language tag: ${JSON.stringify(value)} (for example fr-CA)`)
}

function invalid(field: string, message: string): ProblemError {
  return new ProblemError('rule_violated', `/body/${field}: ${message}`, {
    errors: [{ pointer: `/body/${field}`, message }],
  })
}

import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { callerId } from './profile.ts'
import type { Preferences } from './schemas.ts'
import type { StoredPreferences } from './storage.ts'

const DEFAULTS: Omit<Preferences, 'updatedAt'> = {
  defaultOrgId: null,
  weekStart: 'monday',
  dateFormat: 'locale',
}

/** Whether the person is an active member of the org now. */
async function isMemberOf(ctx: OperationContext, orgId: OrgId): Promise<boolean> {
  const member = await ctx.store.members.findByUser(orgId, callerId(ctx))
  return member?.status === 'active' && (await ctx.store.orgs.get(orgId)) !== null
}

/** The person's preferences, defaults filled in; a default workspace they have left reads as null. */
export async function getPreferences(ctx: OperationContext): Promise<Preferences> {
  const stored = await ctx.store.preferences.get(callerId(ctx))
  if (!stored) return { ...DEFAULTS, updatedAt: null }
  if (stored.defaultOrgId && !(await isMemberOf(ctx, stored.defaultOrgId)))
    return { ...stored, defaultOrgId: null }
  return stored
}

export async function updatePreferences(
  ctx: OperationContext,
  patch: Partial<Omit<Preferences, 'updatedAt'>>,
): Promise<Preferences> {
  if (patch.defaultOrgId && !(await isMemberOf(ctx, patch.defaultOrgId))) {
    // Not a member, or no such org: the same answer, so membership cannot be probed.
    throw referenceNotFound(
      '/body/defaultOrgId',
      'The default workspace must be one you are a member of.',
      'Not a workspace of yours',
    )
  }
  const { updatedAt: _at, ...current } = await getPreferences(ctx)
  const next: StoredPreferences = { ...current, ...patch, updatedAt: ctx.now }
  await ctx.store.preferences.put(callerId(ctx), next)
  return next
}

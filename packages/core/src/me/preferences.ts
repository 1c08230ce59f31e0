import type { OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { NOTIFICATION_KINDS, type NotificationKind } from '../notifications/schemas.ts'
import { callerId } from './profile/profile.ts'
import type { Preferences } from './schemas.ts'
import type { StoredPreferences } from './storage.ts'

/** Every kind goes by mail until the person turns it off. */
export function mailKindsOf(
  stored: Partial<Record<NotificationKind, boolean>>,
): Record<NotificationKind, boolean> {
  return Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, stored[k] ?? true])) as Record<
    NotificationKind,
    boolean
  >
}

/** What a person who never changed a preference has. */
export const PREFERENCE_DEFAULTS: Omit<StoredPreferences, 'updatedAt'> = {
  defaultOrgId: null,
  weekStart: 'monday',
  dateFormat: 'locale',
  notificationDelivery: 'instant',
  digestHour: 9,
  mailKinds: {},
}

/** Whether the person is an active member of the org now. */
async function isMemberOf(ctx: OperationContext, orgId: OrgId): Promise<boolean> {
  const member = await ctx.store.members.findByUser(orgId, callerId(ctx))
  return member?.status === 'active' && (await ctx.store.orgs.get(orgId)) !== null
}

const present = (p: Omit<StoredPreferences, 'updatedAt'> & { updatedAt: string | null }): Preferences => ({
  ...p,
  mailKinds: mailKindsOf(p.mailKinds),
})

async function stored(ctx: OperationContext) {
  const row = await ctx.store.preferences.get(callerId(ctx))
  if (!row) return { ...PREFERENCE_DEFAULTS, updatedAt: null }
  if (row.defaultOrgId && !(await isMemberOf(ctx, row.defaultOrgId))) return { ...row, defaultOrgId: null }
  return row
}

/** The person's preferences, defaults filled in; a default workspace they have left reads as null. */
export async function getPreferences(ctx: OperationContext): Promise<Preferences> {
  return present(await stored(ctx))
}

export async function updatePreferences(
  ctx: OperationContext,
  patch: Partial<Omit<Preferences, 'updatedAt' | 'mailKinds'>> & {
    mailKinds?: Partial<Record<NotificationKind, boolean>>
  },
): Promise<Preferences> {
  if (patch.defaultOrgId && !(await isMemberOf(ctx, patch.defaultOrgId))) {
    // Not a member, or no such org: the same answer, so membership cannot be probed.
    throw referenceNotFound(
      '/body/defaultOrgId',
      'The default workspace must be one you are a member of.',
      'Not a workspace of yours',
    )
  }
  const { updatedAt: _at, ...current } = await stored(ctx)
  const { mailKinds, ...rest } = patch
  const next: StoredPreferences = {
    ...current,
    ...rest,
    // Only the kinds sent change; the stored map keeps what was set explicitly.
    mailKinds: { ...current.mailKinds, ...mailKinds },
    updatedAt: ctx.now,
  }
  await ctx.store.preferences.put(callerId(ctx), next)
  return present(next)
}

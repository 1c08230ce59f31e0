import type { MemberId, OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Store } from '../kernel/storage.ts'
import { NOTIFICATION_KINDS, type NotificationKind, type NotificationSettings } from './schemas.ts'
import { notificationRecipient } from './service.ts'

/** A member's settings: every kind on unless they turned it off. */
export async function settingsOf(
  store: Store,
  orgId: OrgId,
  memberId: MemberId,
): Promise<NotificationSettings> {
  const stored = await store.notificationSettings.list(orgId, memberId)
  const kinds = Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, true])) as Record<
    NotificationKind,
    boolean
  >
  let updatedAt: string | null = null
  for (const s of stored) {
    kinds[s.kind] = s.enabled
    if (!updatedAt || s.updatedAt > updatedAt) updatedAt = s.updatedAt
  }
  return { memberId, kinds, updatedAt }
}

export function getSettings(ctx: OperationContext): Promise<NotificationSettings> {
  return settingsOf(ctx.store, ctx.org!.id, notificationRecipient(ctx))
}

/** Changes the kinds given; an unchanged value writes nothing. */
export async function updateSettings(
  ctx: OperationContext,
  patch: { kinds: Partial<Record<NotificationKind, boolean>> },
): Promise<NotificationSettings> {
  const me = notificationRecipient(ctx)
  const orgId = ctx.org!.id
  const before = await settingsOf(ctx.store, orgId, me)
  const changes: Record<string, { before: boolean; after: boolean }> = {}
  for (const kind of NOTIFICATION_KINDS) {
    const next = patch.kinds[kind]
    if (next === undefined || next === before.kinds[kind]) continue
    await ctx.store.notificationSettings.put(orgId, me, kind, next, ctx.now)
    changes[kind] = { before: before.kinds[kind], after: next }
  }
  if (Object.keys(changes).length === 0) return before
  const settings = await settingsOf(ctx.store, orgId, me)
  ctx.emit({
    kind: 'notification_setting.updated',
    resourceType: 'notification_setting',
    resourceId: me,
    recipientId: me,
    data: { notificationSettings: settings, changes },
  })
  return settings
}

import type { MemberId, ViewId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import {
  BUILT_IN_DISPLAY,
  type PreferenceLevel,
  type ViewDisplayOverrides,
  type ViewPreferences,
} from './preference-schemas.ts'
import type { View } from './schemas.ts'
import { requireEditable, requireView } from './service.ts'

/** The member a level's row belongs to: the caller, or none for the view's default. */
const ownerOf = (ctx: OperationContext, level: PreferenceLevel) =>
  level === 'default' ? null : (ctx.actor!.id as MemberId)

/** The view's display settings as the caller sees them: built-in < view default < mine. */
export async function getViewPreferences(ctx: OperationContext, viewId: ViewId): Promise<ViewPreferences> {
  const view = await requireView(ctx, viewId)
  return read(ctx, view)
}

async function read(ctx: OperationContext, view: View): Promise<ViewPreferences> {
  const repo = ctx.store.viewPreferences
  const viewDefault = await repo.get(view.orgId, view.id, null)
  const mine = await repo.get(view.orgId, view.id, ctx.actor!.id as MemberId)
  return {
    viewId: view.id,
    effective: { ...BUILT_IN_DISPLAY, ...viewDefault?.preferences, ...mine?.preferences },
    viewDefault: viewDefault?.preferences ?? null,
    mine: mine?.preferences ?? null,
    updatedAt: mine?.updatedAt ?? null,
  }
}

/**
 * Replaces one level's overrides with `preferences` (what it leaves out comes from the level below).
 * Anyone who sees the view sets their own; the view's default needs the right to edit the view.
 */
export async function putViewPreferences(
  ctx: OperationContext,
  viewId: ViewId,
  input: { level?: PreferenceLevel; preferences: ViewDisplayOverrides },
): Promise<ViewPreferences> {
  const view = await requireView(ctx, viewId)
  const level = input.level ?? 'mine'
  if (level === 'default') await requireEditable(ctx, view)
  await ctx.store.viewPreferences.put(view.orgId, view.id, ownerOf(ctx, level), input.preferences, ctx.now)
  emitPreferences(ctx, 'view_preferences.updated', view, level, { preferences: input.preferences })
  return read(ctx, view)
}

/** Drops one level's overrides; dropping what is not there is a 404. */
export async function deleteViewPreferences(
  ctx: OperationContext,
  viewId: ViewId,
  level: PreferenceLevel = 'mine',
): Promise<void> {
  const view = await requireView(ctx, viewId)
  if (level === 'default') await requireEditable(ctx, view)
  if (!(await ctx.store.viewPreferences.delete(view.orgId, view.id, ownerOf(ctx, level)))) {
    throw notFound('Preferences')
  }
  emitPreferences(ctx, 'view_preferences.deleted', view, level, {})
}

/**
 * One's own overrides are read by oneself only (as a notification's events are); a shared view's
 * default is filed under its team, a personal view's under its owner alone.
 */
function emitPreferences(
  ctx: OperationContext,
  kind: string,
  view: View,
  level: PreferenceLevel,
  data: Record<string, unknown>,
) {
  const shared = level === 'default' && view.teamId
  ctx.emit({
    kind,
    resourceType: 'view',
    resourceId: view.id,
    ...(shared ? { teamId: view.teamId } : { recipientId: level === 'mine' ? ctx.actor!.id : view.ownerId }),
    data: { id: view.id, level, memberId: ownerOf(ctx, level), ...data },
  })
}

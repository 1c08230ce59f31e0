import type { InitiativeId, LabelId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { containerLabel, requireLabelToRemove } from '../../labels/container-labels.ts'
import { recordHistory } from '../history/history.ts'
import type { Initiative } from '../schemas.ts'
import { emitInitiative, requireInitiative, unscoped } from '../service.ts'

/** Puts an org label on the initiative, by the rule of project labels (`containerLabel`). */
export async function addInitiativeLabel(
  ctx: OperationContext,
  id: InitiativeId,
  labelId: LabelId,
): Promise<Initiative> {
  const initiative = await requireInitiative(ctx, id)
  if (initiative.labelIds.includes(labelId)) return initiative
  const { label, replaces } = await containerLabel(ctx, initiative.orgId, labelId, initiative.labelIds)
  for (const otherId of replaces) {
    await ctx.store.initiatives.removeLabel(initiative.orgId, initiative.id, otherId)
  }
  await ctx.store.initiatives.addLabel(initiative.orgId, initiative.id, label.id, ctx.now)
  return labelsChanged(ctx, initiative)
}

/** Takes a label off the initiative; one it does not carry changes nothing. */
export async function removeInitiativeLabel(
  ctx: OperationContext,
  id: InitiativeId,
  labelId: LabelId,
): Promise<void> {
  const initiative = await requireInitiative(ctx, id)
  await requireLabelToRemove(ctx, initiative.orgId, labelId)
  if (await ctx.store.initiatives.removeLabel(initiative.orgId, initiative.id, labelId)) {
    await labelsChanged(ctx, initiative)
  }
}

async function labelsChanged(ctx: OperationContext, before: Initiative): Promise<Initiative> {
  await ctx.store.initiatives.update(before.orgId, before.id, { updatedAt: ctx.now })
  const next = await unscoped(ctx, before.id)
  const changes = { labelIds: { before: before.labelIds, after: next.labelIds } }
  await recordHistory(ctx, before.id, { action: 'updated', changes })
  emitInitiative(ctx, 'initiative.updated', next, { initiative: next, changes })
  return requireInitiative(ctx, before.id)
}

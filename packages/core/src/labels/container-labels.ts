import type { LabelId, OrgId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import type { Label } from './schemas.ts'

/**
 * The rule for labels on projects, programs and initiatives: an active, non-group org label (a team
 * label applies to one team's tasks; these containers span teams), else 422 pointing at
^ * `/params/labelId`. A label of a group replaces the container's other label of that group, as on
 * tasks: `replaces` names those.
 */
export async function containerLabel(
  ctx: OperationContext,
  orgId: OrgId,
  labelId: LabelId,
  current: readonly LabelId[],
): Promise<{ label: Label; replaces: LabelId[] }> {
  const scope = await ctx.scope()
  const label = await ctx.store.labels.get(orgId, labelId, scope)
  if (!label || label.isGroup || label.archivedAt || label.teamId !== null) {
    throw referenceNotFound(
      '/params/labelId',
      'Not an active org label that can be applied.',
      'Must be an active, non-group org label',
    )
  }
  const replaces: LabelId[] = []
  if (label.parentId) {
    for (const otherId of current) {
      const other = await ctx.store.labels.get(orgId, otherId, scope)
      if (other?.parentId === label.parentId && other.id !== label.id) replaces.push(otherId)
    }
  }
  return { label, replaces }
}

/** Removing a label from a container: one that does not exist is a 404 (one not carried changes nothing). */
export async function requireLabelToRemove(
  ctx: OperationContext,
  orgId: OrgId,
  labelId: LabelId,
): Promise<void> {
  if (!(await ctx.store.labels.get(orgId, labelId, await ctx.scope()))) throw notFound('Label')
}

import { type InitiativeId, newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { currentOrg } from '../orgs/service.ts'

/** Keeps one entry per write in the writing transaction, so the history never misses a change. */
export async function recordHistory(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  action: string,
  changes: Record<string, unknown>,
): Promise<void> {
  await ctx.store.initiatives.insertHistory(currentOrg(ctx).id, {
    id: newId('InitiativeHistoryId'),
    initiativeId,
    actorId: ctx.actor!.id,
    action,
    changes,
    createdAt: ctx.now,
  })
}

import { currentOrg } from '../../kernel/context.ts'
import { type InitiativeId, newId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { InitiativeHistoryChange } from './schemas.ts'

/**
 * Keeps one entry per write in the writing transaction, so the history never misses a change. The
 * change is typed by its action (`InitiativeHistoryEntry`'s branches): a shape the schema does not
 * describe does not compile.
 */
export async function recordHistory(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  change: InitiativeHistoryChange,
): Promise<void> {
  await ctx.store.initiatives.insertHistory(currentOrg(ctx).id, {
    id: newId('InitiativeHistoryId'),
    initiativeId,
    actorId: ctx.actor!.id,
    ...change,
    createdAt: ctx.now,
  })
}

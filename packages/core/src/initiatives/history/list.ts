import type { InitiativeId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { requireInitiative } from '../service.ts'
import type { InitiativeHistoryEntry } from './schemas.ts'

/** The initiative's history, newest first; 404 when the caller cannot view it. */
export async function listHistory(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  query: { cursor?: string; limit?: number },
): Promise<Page<InitiativeHistoryEntry>> {
  const initiative = await requireInitiative(ctx, initiativeId)
  return readPage(ctx, {
    scope: ['initiatives.history.list', initiative.orgId, initiative.id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (e: InitiativeHistoryEntry) => e.createdAt,
    fetch: (page) => ctx.store.initiatives.history(initiative.orgId, initiative.id, page),
  })
}

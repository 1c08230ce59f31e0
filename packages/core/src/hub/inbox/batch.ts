import type { NotificationId, OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { NotificationAction } from '../../notifications/schemas.ts'
import { actOnMany } from '../../notifications/service.ts'
import { readerIn } from '../../streams/readers.ts'
import { type PartialOrg, problemCodeOf } from '../fanout.ts'

/** The actions a cross-workspace batch offers (snoozing needs a time, so it stays per workspace). */
export const HUB_INBOX_ACTIONS = ['read', 'unread', 'archive', 'restore'] as const
export type HubInboxAction = (typeof HUB_INBOX_ACTIONS)[number] & NotificationAction

export interface HubInboxBatchBody {
  action: HubInboxAction
  workspaces: Array<{ orgId: string; ids?: string[] }>
}

/**
 * Applies one action to the caller's notifications in several workspaces: in each, as its member
 * there and in a transaction of its own (the operation is `perWorkspace`), exactly what
 * `notifications.batch` does (one statement, a `notification.updated` event per notification
 * changed, in that workspace's log). A workspace where the caller is no member, or that is archived,
 * or whose transaction fails, is reported in `partial` and changes nothing; the others stand.
 */
export async function hubInboxBatch(ctx: OperationContext, body: HubInboxBatchBody) {
  const seen = new Set<string>()
  for (const [i, w] of body.workspaces.entries()) {
    if (seen.has(w.orgId)) {
      throw new ProblemError('rule_violated', 'Each workspace may appear once.', {
        errors: [{ pointer: `/body/workspaces/${i}/orgId`, message: 'Duplicate workspace' }],
      })
    }
    seen.add(w.orgId)
  }
  const userId = ctx.principal!.userId
  const data: Array<{ orgId: OrgId; updated: number }> = []
  const partial: PartialOrg[] = []
  for (const w of body.workspaces) {
    const orgId = w.orgId as OrgId
    const org = await ctx.store.orgs.get(orgId)
    const reader = org ? await readerIn(ctx.store, orgId, userId) : null
    if (!org || !reader || reader.actor.kind !== 'person') {
      partial.push({ orgId, code: 'not_found' })
      continue
    }
    if (org.archivedAt) {
      partial.push({ orgId, code: 'archived' })
      continue
    }
    const selection = w.ids
      ? { ids: w.ids as NotificationId[] }
      : { filter: { view: body.action === 'restore' ? ('archived' as const) : ('inbox' as const) } }
    try {
      const { updated } = await ctx.transactionIn(org, reader.actor, (as) =>
        actOnMany(as, selection, body.action),
      )
      data.push({ orgId, updated })
    } catch (error) {
      partial.push({ orgId, code: problemCodeOf(error) })
    }
  }
  return { data, partial }
}

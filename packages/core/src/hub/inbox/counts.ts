import type { MemberId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { fanOut } from '../fanout.ts'

/** The caller's notification counts in each workspace (those of `notifications.counts`), and the total unread. */
export async function hubInboxCounts(ctx: OperationContext) {
  const { results, partial } = await fanOut(ctx, (reader) =>
    reader.actor.kind === 'person'
      ? ctx.store.notifications.counts(reader.orgId, reader.actor.id as MemberId, ctx.now)
      : Promise.resolve(null),
  )
  const data = results.flatMap((r) => (r.value ? [{ orgId: r.orgId, ...r.value }] : []))
  return { unread: data.reduce((sum, c) => sum + c.unread, 0), data, partial }
}

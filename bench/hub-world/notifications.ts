/** The `assigned` notifications of the bulk: what the notifier writes for `task.created` with an assignee. */
import { newId } from '@workgraph/core'
import { type Bulk, type BulkContext, iso } from './shared.ts'

/** The person's notification for task `n` (`view` as `tasks.get` shows it), a second after its creation. */
export function addAssigned(
  bulk: Bulk,
  ctx: BulkContext,
  n: number,
  task: { id: string; view: { key: string; title: unknown }; createdEventId: string },
): void {
  const { orgId, memberId, ownerMemberId, start } = ctx
  const at = start + n * 60_000 + 1000
  const notification = {
    id: newId('NotificationId'),
    orgId,
    recipientId: memberId,
    kind: 'assigned',
    record: { type: 'task', id: task.id },
    actorId: ownerMemberId,
    eventId: task.createdEventId,
    summary: `${task.view.key} ${task.view.title}`,
    readAt: null,
    snoozedUntil: null,
    archivedAt: null,
    createdAt: iso(at),
    updatedAt: iso(at),
  }
  const { record, ...rest } = notification
  bulk.notifications.push({
    ...rest,
    recordType: record.type,
    recordId: record.id,
    dedupeKey: task.createdEventId,
  })
  bulk.events.push({
    at,
    event: {
      id: newId('EventId'),
      kind: 'notification.created',
      // The notifier runs as the system: no actor.
      actorId: null,
      resourceType: 'notification',
      resourceId: notification.id,
      teamId: null,
      recipientId: memberId,
      data: { notification: { ...notification, state: 'unread' } },
      createdAt: iso(at),
    },
  })
}

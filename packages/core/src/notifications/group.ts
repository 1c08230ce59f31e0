import type { ResourceGroup } from '../kernel/group.ts'
import { NOTIFICATION_EVENT_DATA } from './event-data.ts'
import { followOperations } from './follow-operations.ts'
import { notificationOperations } from './operations.ts'

/** Notifications: derived from the event log by the notifier; each one is its recipient's alone. */
export const notificationsGroup: ResourceGroup = {
  name: 'notifications',
  tags: [
    {
      name: 'Notifications',
      description:
        "The caller's notifications in a workspace (assignments, mentions, comments, state changes, status updates, approvals, due dates), their state, and the caller's settings.",
    },
  ],
  operations: [...notificationOperations, ...followOperations],
  eventData: NOTIFICATION_EVENT_DATA,
  events: [
    {
      kinds: ['notification.created', 'notification.updated'],
      emittedBy:
        'the notifier (`created`, actor null) and `notifications.*` (`updated`, one per notification changed); read by the recipient only',
    },
    {
      kinds: ['notification_setting.updated'],
      emittedBy: '`notificationSettings.update`; read by the member only',
    },
    {
      kinds: [
        'notification_subscription.created',
        'notification_subscription.updated',
        'notification_subscription.deleted',
      ],
      emittedBy: '`notificationRules.*`; read by the member only',
    },
    {
      kinds: ['notification_mute.created', 'notification_mute.deleted'],
      emittedBy:
        '`notificationMutes.create` (again on a muted record: `until` replaced) and `.delete`; read by the member only',
    },
  ],
}

import { type TSchema, Type } from '@sinclair/typebox'
import { changedData, EventChanges, recordData, sameData } from '../kernel/event-data.ts'
import { NotificationMute, NotificationRule } from './follow-schemas.ts'
import { Notification, NotificationSettings } from './schemas.ts'

/** The `data` of notification events, as notifier.ts, service.ts, settings.ts and follows.ts emit it. */
export const NOTIFICATION_EVENT_DATA: Record<string, TSchema> = {
  ...sameData(['notification.created', 'notification.updated'], recordData('notification', Notification)),
  'notification_setting.updated': changedData('notificationSettings', NotificationSettings),
  ...sameData(
    ['notification_subscription.created', 'notification_subscription.deleted'],
    recordData('notificationSubscription', NotificationRule),
  ),
  'notification_subscription.updated': changedData('notificationSubscription', NotificationRule),
  // Muting a muted record again replaces its `until`, with the change.
  'notification_mute.created': Type.Object({
    notificationMute: NotificationMute,
    changes: Type.Optional(EventChanges),
  }),
  'notification_mute.deleted': recordData('notificationMute', NotificationMute),
}

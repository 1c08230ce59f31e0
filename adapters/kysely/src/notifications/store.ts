import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { muteRepo, subscriptionRepo } from './follows.ts'
import { notificationRepo } from './notifications.ts'
import { notifierRepo } from './notifier.ts'
import { notificationSettingRepo } from './settings.ts'

/** Notifications, members' settings, notification rules and mutes, and the notifier's positions. */
export const notificationsStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({
    notifications: notificationRepo(db),
    notificationSettings: notificationSettingRepo(db),
    notifier: notifierRepo(db, dialect),
    notificationSubscriptions: subscriptionRepo(db),
    notificationMutes: muteRepo(db),
  }) satisfies Partial<Store>

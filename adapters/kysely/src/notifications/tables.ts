import type { BigIntColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** The notifications tables, as queries see them. */
export interface NotificationsTables {
  notifications: {
    orgId: string
    id: string
    recipientId: string
    kind: string
    recordType: string
    recordId: string
    actorId: string | null
    eventId: string | null
    summary: string
    dedupeKey: string
    readAt: NullableTimestamp
    snoozedUntil: NullableTimestamp
    archivedAt: NullableTimestamp
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  notificationSettings: {
    orgId: string
    memberId: string
    kind: string
    enabled: number
    updatedAt: Timestamp
  }
  notifierPositions: { orgId: string; seq: BigIntColumn }
  notificationSubscriptions: {
    orgId: string
    id: string
    memberId: string
    targetType: string
    targetId: string
    /** A JSON array, as text. */
    kinds: string
    active: number
    createdAt: Timestamp
    updatedAt: Timestamp
  }
  notificationMutes: {
    orgId: string
    id: string
    memberId: string
    recordType: string
    recordId: string
    until: NullableTimestamp
    createdAt: Timestamp
  }
}

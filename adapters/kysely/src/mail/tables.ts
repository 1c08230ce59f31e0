import type { BigIntColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** Mail delivery of notifications, as queries see it. */
export interface MailTables {
  mailPositions: { orgId: string; seq: BigIntColumn }
  mailOutbox: {
    id: string
    userId: string
    dedupeKey: string
    kind: string
    toAddress: string
    subject: string
    body: string
    status: string
    attempts: number
    nextAttemptAt: Timestamp
    leaseUntil: NullableTimestamp
    lastAttemptAt: NullableTimestamp
    lastError: string | null
    createdAt: Timestamp
    sentAt: NullableTimestamp
  }
  mailDigests: { userId: string; lastOn: string; lastAt: Timestamp }
}

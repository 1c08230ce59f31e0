import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T08:00:00.000Z'

export const notificationExample = {
  id: id('ntf'),
  orgId: id('org'),
  recipientId: id('mem'),
  kind: 'assigned',
  record: { type: 'task', id: id('task') },
  actorId: id('mem', 1),
  eventId: id('evt'),
  summary: 'ENG-42 Fix the login redirect',
  state: 'unread',
  readAt: null,
  snoozedUntil: null,
  archivedAt: null,
  createdAt: at,
  updatedAt: at,
}

const read = { ...notificationExample, state: 'read', readAt: later, updatedAt: later }
const snoozed = {
  ...notificationExample,
  state: 'snoozed',
  snoozedUntil: '2030-01-15T08:00:00.000Z',
  updatedAt: later,
}
const archived = { ...notificationExample, state: 'archived', archivedAt: later, updatedAt: later }

export const notificationExamples: Record<string, OperationExamples> = {
  list: { response: { data: [notificationExample], nextCursor: null } },
  get: { response: notificationExample },
  read: { response: read },
  unread: { response: notificationExample },
  snooze: { request: { until: '2030-01-15T08:00:00.000Z' }, response: snoozed },
  unsnooze: { response: { ...notificationExample, updatedAt: later } },
  archive: { response: archived },
  restore: { response: { ...notificationExample, updatedAt: later } },
  batch: { request: { action: 'archive', ids: [id('ntf'), id('ntf', 1)] }, response: { updated: 2 } },
  counts: { response: { unread: 4, inbox: 9, snoozed: 1, unreadByKind: { assigned: 1, mentioned: 3 } } },
  settingsGet: {
    response: {
      memberId: id('mem'),
      kinds: {
        assigned: true,
        mentioned: true,
        commented: false,
        stateChanged: true,
        updatePosted: true,
        approvalRequested: true,
        dueSoon: true,
        overdue: true,
        reminder: true,
        triaged: true,
        triageRequested: true,
        taskCreated: true,
        updateRequested: true,
        ruleNotified: true,
      },
      updatedAt: at,
    },
  },
}

export const settingsUpdateExample: OperationExamples = {
  request: { kinds: { commented: false } },
  response: notificationExamples.settingsGet!.response,
}

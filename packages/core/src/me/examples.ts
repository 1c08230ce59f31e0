import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { NOTIFICATION_KINDS } from '../notifications/schemas.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

const profile = {
  id: id('usr'),
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  avatarUrl: 'https://example.com/ada.png',
  timeZone: 'Europe/London',
  locale: 'en-GB',
  createdAt: at,
}

const me = {
  user: profile,
  // Active memberships, by org id; `token` describes the access token the call was made with.
  memberships: [
    { orgId: id('org'), orgName: 'Acme', memberId: id('mem'), role: 'admin' },
    { orgId: id('org', 1), orgName: 'Acme Labs', memberId: id('mem', 3), role: 'member' },
  ],
  token: {
    scopes: ['work:read', 'work:write'],
    clientId: 'https://app.example.com/oauth/client.json',
    clientName: 'Example app',
    resource: 'https://work.example.com/v1',
    expiresAt: '2030-01-13T16:15:00.000Z',
  },
}

export const meExamples: Record<'get' | 'update', OperationExamples> = {
  get: { response: me },
  update: { request: { timeZone: 'Europe/London', locale: 'en-GB' }, response: me },
}

const preferences = {
  defaultOrgId: id('org'),
  weekStart: 'monday',
  dateFormat: 'iso',
  notificationDelivery: 'dailyDigest',
  digestHour: 8,
  mailKinds: Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, k !== 'taskCreated'])),
  updatedAt: at,
}

export const preferenceExamples: Record<'get' | 'update', OperationExamples> = {
  get: { response: preferences },
  update: {
    request: {
      dateFormat: 'iso',
      notificationDelivery: 'dailyDigest',
      digestHour: 8,
      mailKinds: { taskCreated: false },
    },
    response: preferences,
  },
}

export const consentExample = {
  id: id('cns'),
  clientId: 'https://app.example.com/oauth/client.json',
  clientName: 'Example app',
  scopes: ['work:read', 'offline_access'],
  createdAt: at,
  updatedAt: at,
  lastUsedAt: '2030-01-14T09:30:00.000Z',
}

const favorite = {
  id: id('fav'),
  record: { orgId: id('org'), type: 'project', id: id('proj') },
  position: 0,
  createdAt: at,
}
const second = { ...favorite, id: id('fav', 1), record: { ...favorite.record, type: 'task', id: id('task') } }

export const favoriteExamples: Record<'list' | 'create' | 'move', OperationExamples> = {
  list: { response: { data: [favorite, { ...second, position: 1 }], nextCursor: null } },
  create: { request: { record: favorite.record }, response: favorite },
  // The task first: moved before the project.
  move: { request: { beforeId: favorite.id }, response: { ...second, position: 0 } },
}

const signedIn = '2030-01-06T08:12:00.000Z'

/** A laptop and a phone, newest last. */
export const sessionsExample: OperationExamples = {
  response: {
    data: [
      {
        id: id('wsn'),
        userAgent:
          'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2) AppleWebKit/605.1.15 Version/17.2 Safari/605.1.15',
        createdAt: signedIn,
        expiresAt: '2030-02-05T08:12:00.000Z',
      },
      {
        id: id('wsn', 1),
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148',
        createdAt: at,
        expiresAt: '2030-02-12T16:00:00.000Z',
      },
    ],
  },
}

/** The apps Ada allowed to act for her. */
export const consentsExample: OperationExamples = { response: { data: [consentExample] } }

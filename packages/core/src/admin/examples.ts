import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'

const settings = {
  orgId: id('org'),
  defaultTeamId: id('team'),
  invitationPolicy: 'verified_domains',
  updatedAt: later,
}

export const settingsExamples: Record<'get' | 'update', OperationExamples> = {
  get: { response: settings },
  // New members start in Engineering. (`verified_domains` needs a verified domain first.)
  update: {
    request: { defaultTeamId: id('team') },
    response: { ...settings, invitationPolicy: 'anyone', updatedAt: at },
  },
}

const pending = {
  id: id('dom'),
  orgId: id('org'),
  domain: 'example.com',
  status: 'pending',
  txtRecord: {
    name: '_workgraph-verification.example.com',
    type: 'TXT',
    value: 'workgraph-verification=Xq3v9sK2mA7bT0cLw4pZ8nR1yE6uJ5dH',
  },
  lastCheckedAt: null,
  lastCheckError: null,
  verifiedAt: null,
  createdBy: id('mem'),
  createdAt: at,
}
const verified = { ...pending, status: 'verified', lastCheckedAt: later, verifiedAt: later }

export const domainExamples: Record<'list' | 'get' | 'create' | 'verify', OperationExamples> = {
  list: { response: { data: [verified], nextCursor: null } },
  get: { response: verified },
  create: { request: { domain: 'example.com' }, response: pending },
  verify: { response: verified },
}

export const auditExamples: Record<'list', OperationExamples> = {
  list: {
    response: {
      data: [
        {
          id: id('evt'),
          seq: 412,
          kind: 'member.updated',
          category: 'members',
          actorId: id('mem'),
          resourceType: 'member',
          resourceId: id('mem', 1),
          data: {
            member: {
              id: id('mem', 1),
              orgId: id('org'),
              userId: id('usr', 1),
              kind: 'person',
              name: 'Grace Hopper',
              email: 'grace@example.com',
              role: 'admin',
              status: 'active',
              createdAt: at,
              updatedAt: later,
            },
            changes: { role: { before: 'member', after: 'admin' } },
          },
          createdAt: later,
        },
      ],
      nextCursor: null,
    },
  },
}

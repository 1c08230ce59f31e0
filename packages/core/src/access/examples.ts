import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

export const resendExample: OperationExamples = {
  response: {
    id: id('inv'),
    orgId: id('org'),
    email: 'ada@example.com',
    role: 'member',
    state: 'pending',
    invitedBy: id('mem'),
    createdAt: '2030-01-06T16:00:00.000Z',
    expiresAt: '2030-01-20T16:00:00.000Z',
    acceptedAt: null,
    acceptedBy: null,
    revokedAt: null,
    declinedAt: null,
  },
}

export const holdersExample: OperationExamples = {
  response: {
    data: [
      {
        actorId: id('mem'),
        kind: 'person',
        name: 'Grace Hopper',
        capability: 'manage',
        role: { role: 'admin', capability: 'manage' },
        grants: [],
      },
      {
        actorId: id('mem', 1),
        kind: 'person',
        name: 'Ada Lovelace',
        capability: 'contribute',
        role: { role: 'guest', capability: null },
        grants: [
          {
            id: id('grt'),
            orgId: id('org'),
            subjectType: 'team',
            subjectId: id('team'),
            containerType: 'project',
            containerId: id('proj'),
            capability: 'contribute',
            createdAt: at,
            updatedAt: at,
          },
        ],
      },
    ],
    nextCursor: null,
  },
}

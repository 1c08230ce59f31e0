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

const invitation = {
  id: id('inv'),
  orgId: id('org'),
  email: 'lin@example.com',
  role: 'member',
  state: 'pending',
  invitedBy: id('mem'),
  createdAt: at,
  // Seven days after it was sent.
  expiresAt: '2030-01-20T16:00:00.000Z',
  acceptedAt: null,
  acceptedBy: null,
  revokedAt: null,
  declinedAt: null,
}

const later = '2030-01-14T10:00:00.000Z'

export const invitationExamples: Record<'create' | 'list' | 'get' | 'revoke', OperationExamples> = {
  create: { request: { email: 'lin@example.com', role: 'member' }, response: invitation },
  list: { response: { data: [invitation], nextCursor: null } },
  get: { response: invitation },
  revoke: { response: { ...invitation, state: 'revoked', revokedAt: later } },
}

/** The membership an accepted invitation makes: the invited person, with the invitation's role. */
export const acceptExample: OperationExamples = {
  request: { token: 'q3Jx9vT0bYwR2mKf8LcN5sPz1hDgA7eU4iXoWnVbQyE' },
  response: {
    id: id('mem', 2),
    orgId: id('org'),
    userId: id('usr', 2),
    kind: 'person',
    name: 'Lin Chen',
    email: 'lin@example.com',
    role: 'member',
    status: 'active',
    createdAt: later,
    updatedAt: later,
  },
}

const membership = { teamId: id('team'), actorId: id('mem'), addedAt: at }

export const teamMemberExamples: Record<'list' | 'add', OperationExamples> = {
  // People and agents alike: the triage agent works in the team too.
  list: {
    response: { data: [membership, { ...membership, actorId: id('agt') }], nextCursor: null },
  },
  add: { response: membership },
}

/** Grace, a member, manages the Launch project beyond what her role gives her. */
const grant = {
  id: id('grt'),
  orgId: id('org'),
  subjectType: 'member',
  subjectId: id('mem'),
  containerType: 'project',
  containerId: id('proj'),
  capability: 'manage',
  createdAt: at,
  updatedAt: at,
}

/** A contractor's team-wide grant: a guest sees nothing but what grants give them. */
const teamGrant = {
  ...grant,
  id: id('grt', 1),
  subjectId: id('mem', 1),
  containerType: 'team',
  containerId: id('team'),
  capability: 'contribute',
}

export const grantExamples: Record<'list' | 'get' | 'create' | 'update', OperationExamples> = {
  list: { response: { data: [grant, teamGrant], nextCursor: null } },
  get: { response: grant },
  create: {
    request: {
      subjectType: 'member',
      subjectId: id('mem'),
      containerType: 'project',
      containerId: id('proj'),
      capability: 'manage',
    },
    response: grant,
  },
  update: {
    request: { capability: 'contribute' },
    response: { ...grant, capability: 'contribute', updatedAt: later },
  },
}

/** A guest asks whether they may assign a task of the team their grant is on. */
export const explainExample: OperationExamples = {
  response: {
    actorId: id('mem', 1),
    capability: 'assign',
    allowed: false,
    effective: 'contribute',
    visible: true,
    role: { role: 'guest', capability: null },
    grants: [teamGrant],
    decidingGrant: teamGrant,
  },
}

import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T08:00:00.000Z'

const subscription = {
  id: id('nsub'),
  memberId: id('mem'),
  target: { type: 'project', id: id('proj') },
  kinds: ['taskCreated', 'updatePosted'],
  active: true,
  createdAt: at,
  updatedAt: at,
}

const mute = {
  id: id('nmut'),
  memberId: id('mem'),
  record: { type: 'task', id: id('task') },
  until: '2030-01-20T08:00:00.000Z',
  createdAt: at,
}

export const followExamples: Record<string, OperationExamples> = {
  subscriptionsList: { response: { data: [subscription], nextCursor: null } },
  subscriptionsGet: { response: subscription },
  subscriptionsCreate: {
    request: { target: subscription.target, kinds: subscription.kinds },
    response: subscription,
  },
  subscriptionsUpdate: {
    request: { active: false },
    response: { ...subscription, active: false, updatedAt: later },
  },
  mutesList: { response: { data: [mute], nextCursor: null } },
  mutesCreate: { request: { record: mute.record, until: mute.until }, response: mute },
}

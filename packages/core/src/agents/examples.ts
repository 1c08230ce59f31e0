import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

const policy = {
  id: id('apol'),
  orgId: id('org'),
  containerType: 'project',
  containerId: id('proj'),
  operations: ['tasks.delete'],
  capabilities: ['assign'],
  agentIds: [],
  approverCapability: 'manage',
  version: 1,
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
}

export const policyExamples: Record<'list' | 'get' | 'create' | 'update', OperationExamples> = {
  list: { response: page(policy) },
  get: { response: policy },
  create: {
    request: {
      containerType: 'project',
      containerId: policy.containerId,
      operations: ['tasks.delete'],
      capabilities: ['assign'],
    },
    response: policy,
  },
  update: {
    request: { agentIds: [id('agt')] },
    response: { ...policy, agentIds: [id('agt')], version: 2, updatedAt: later },
  },
}

const request = {
  id: id('apr'),
  orgId: id('org'),
  agentId: id('agt'),
  sessionId: id('ases'),
  operationId: 'tasks.delete',
  input: { params: { taskId: id('task') }, query: {}, body: null },
  capability: 'manage',
  policyId: policy.id,
  policyVersion: 1,
  approverCapability: 'manage',
  state: 'pending',
  proposedBy: id('mem'),
  createdAt: at,
  expiresAt: '2030-01-14T16:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: null,
  result: null,
}

export const requestChangesExample: OperationExamples = {
  request: { feedback: 'Archive it instead: the history matters.' },
  response: {
    ...request,
    state: 'changes_requested',
    decidedBy: id('mem', 1),
    decidedAt: later,
    reason: 'Archive it instead: the history matters.',
  },
}

export const cancelApprovalExample: OperationExamples = {
  request: { reason: 'Found a duplicate; merging instead.' },
  response: {
    ...request,
    state: 'canceled',
    decidedBy: id('mem'),
    decidedAt: later,
    reason: 'Found a duplicate; merging instead.',
  },
}

const session = {
  id: id('ases'),
  orgId: id('org'),
  agentId: id('agt'),
  taskId: id('task'),
  title: 'Triage the crash reports',
  externalUrl: 'https://agent.example.com/runs/4812',
  planSummary: '1. Group reports by stack trace\n2. Link duplicates\n3. Set priorities',
  state: 'active',
  startedBy: id('mem'),
  createdAt: at,
  updatedAt: later,
  endedAt: null,
}

export const updateSessionExample: OperationExamples = {
  request: { externalUrl: session.externalUrl, planSummary: session.planSummary },
  response: session,
}

export const promptExample: OperationExamples = {
  request: { content: 'Leave the ones from the beta build alone.' },
  response: {
    id: id('act'),
    sessionId: session.id,
    seq: 7,
    kind: 'prompt',
    content: 'Leave the ones from the beta build alone.',
    data: { promptedBy: id('mem', 1) },
    createdAt: later,
  },
}

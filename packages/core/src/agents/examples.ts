import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { taskExample } from '../tasks/examples.ts'

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

/** The triage agent: anything needing `manage`, and every deletion, waits for a person. */
const agent = {
  id: id('agt'),
  orgId: id('org'),
  kind: 'agent',
  name: 'Triage bot',
  description: 'Labels, deduplicates and routes new bug reports.',
  status: 'active',
  approvalPolicy: { capabilities: ['manage'], operations: ['tasks.delete'] },
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
}
const agentDescription =
  'Labels, deduplicates and routes new bug reports. Asks before closing anything as a duplicate.'

export const agentExamples: Record<
  'list' | 'get' | 'create' | 'update' | 'deactivate' | 'reactivate',
  OperationExamples
> = {
  list: { response: page(agent) },
  get: { response: agent },
  // Left out, `approvalPolicy` is this one: `manage` and `tasks.delete` wait for approval.
  create: { request: { name: agent.name, description: agent.description }, response: agent },
  update: {
    request: { description: agentDescription },
    response: { ...agent, description: agentDescription, updatedAt: later },
  },
  deactivate: { response: { ...agent, status: 'deactivated', updatedAt: later } },
  reactivate: { response: { ...agent, updatedAt: later } },
}

/** A session just started on ENG-42: pending until the agent writes its first activity. */
const started = {
  ...session,
  title: 'Reproduce the login redirect bug',
  externalUrl: null,
  planSummary: null,
  state: 'pending',
  updatedAt: at,
}
const activity = {
  id: id('act', 1),
  sessionId: session.id,
  seq: 3,
  kind: 'thought',
  content: 'The identity provider drops `returnTo` when it is longer than 255 characters.',
  data: null,
  createdAt: later,
}

export const sessionExamples: Record<
  'create' | 'list' | 'get' | 'cancel' | 'finish' | 'activities' | 'activity' | 'act',
  OperationExamples
> = {
  create: {
    request: { agentId: id('agt'), taskId: id('task'), title: started.title },
    response: started,
  },
  list: { response: page(session) },
  get: { response: session },
  cancel: { response: { ...session, state: 'canceled', updatedAt: later, endedAt: later } },
  finish: {
    request: { outcome: 'completed' },
    response: { ...session, state: 'completed', updatedAt: later, endedAt: later },
  },
  // Oldest first.
  activities: {
    response: {
      data: [
        {
          id: id('act', 2),
          sessionId: session.id,
          seq: 1,
          kind: 'thought',
          content: 'Reading the 14 crash reports since Friday.',
          data: null,
          createdAt: at,
        },
        {
          id: id('act', 3),
          sessionId: session.id,
          seq: 2,
          kind: 'action',
          content: 'Ran `tasks.update`.',
          data: { operationId: 'tasks.update' },
          createdAt: at,
        },
      ],
      nextCursor: null,
    },
  },
  activity: { request: { kind: activity.kind, content: activity.content }, response: activity },
  // Moves ENG-42 to In Review: the agent's policy lets it run, so it runs at once.
  act: {
    request: { operationId: 'tasks.update', params: { taskId: id('task') }, body: { stateId: id('wfs', 4) } },
    response: {
      outcome: 'executed',
      result: { ...taskExample, stateId: id('wfs', 4), updatedAt: later },
    },
  },
}

const deciderReason = 'Not yet: ENG-42 still has an open pull request.'

export const approvalExamples: Record<'list' | 'get' | 'approve' | 'reject', OperationExamples> = {
  list: { response: page(request) },
  get: { response: request },
  // Approving runs the operation as proposed; `result` is what it answered (204: null).
  approve: { response: { ...request, state: 'approved', decidedBy: id('mem', 1), decidedAt: later } },
  reject: {
    request: { reason: deciderReason },
    response: {
      ...request,
      state: 'rejected',
      decidedBy: id('mem', 1),
      decidedAt: later,
      reason: deciderReason,
    },
  },
}

import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { notificationExample } from '../notifications/examples.ts'
import { otherTaskExample, taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const cursor = 'eyJzIjoiLi4uIn0.c2lnbmF0dXJl'

/** ENG-42, assigned to you and in the running cycle. */
const task = taskExample
/** Due today: renewing a certificate before it expires tonight. */
const dueToday = {
  ...otherTaskExample,
  id: id('task', 8),
  key: 'ENG-38',
  number: 38,
  title: 'Renew the TLS certificate of api.acme.example',
  description: null,
  priority: 'high',
  estimate: 1,
  dueDate: '2030-01-13',
  projectId: null,
  labelIds: [],
}

const approval = {
  id: id('apr'),
  orgId: id('org', 1),
  agentId: id('agt'),
  sessionId: id('ases'),
  operationId: 'tasks.archive',
  input: { params: { taskId: id('task', 1) }, query: {}, body: null },
  capability: 'manage',
  // Held by the agent's own policy, not a container's.
  policyId: null,
  policyVersion: null,
  approverCapability: null,
  state: 'pending',
  proposedBy: id('mem', 1),
  createdAt: at,
  expiresAt: '2030-01-14T16:00:00.000Z',
  decidedBy: null,
  decidedAt: null,
  reason: null,
  result: null,
}

const none = { items: [], more: false }

const updateDue = {
  orgId: id('org'),
  subjectType: 'project',
  subjectId: id('proj'),
  name: 'Launch',
  ownerId: id('mem'),
  lastUpdateAt: '2030-01-06T09:30:00.000Z',
  nextUpdateDueAt: '2030-01-11T00:00:00.000Z',
  overdue: true,
}

const planItem = {
  id: id('pli'),
  date: '2030-01-13',
  position: 0,
  kind: 'task',
  text: null,
  task: {
    hidden: false,
    orgId: id('org'),
    orgName: 'Acme',
    id: id('task'),
    key: 'ENG-42',
    title: 'Fix the login redirect',
    stateCategory: 'started',
    dueDate: taskExample.dueDate,
  },
  timeBlock: { start: '09:00', end: '10:30' },
  estimateMinutes: 90,
  source: 'suggested:currentCycle',
  carriedFrom: null,
  carryCount: 0,
  doneAt: null,
  doneBy: null,
  createdAt: at,
  updatedAt: at,
}

export const hubExamples: Record<
  | 'search'
  | 'inbox'
  | 'activity'
  | 'resolve'
  | 'tasks'
  | 'tasksQuery'
  | 'today'
  | 'inboxCounts'
  | 'approvals',
  OperationExamples
> = {
  tasks: { response: { data: [task], nextCursor: cursor, partial: [] } },
  // Urgent or high, or due within a week, labelled bug, anywhere you may look; most urgent first.
  tasksQuery: {
    request: {
      relation: 'any',
      filter: {
        or: [{ priority: { in: ['urgent', 'high'] } }, { dueDate: { lte: 'P7D' } }],
        labelNames: { in: ['bug'] },
        assigneeEmail: { neq: 'dana@acme.example' },
      },
      sort: '-priority',
      limit: 20,
    },
    response: { data: [task, dueToday], nextCursor: null, partial: [] },
  },
  // Your open tasks by section (due first), what you may approve, unread mentions, updates you owe, your plan.
  today: {
    response: {
      date: '2030-01-13',
      overdue: none,
      dueToday: { items: [dueToday], more: false },
      dueSoon: { items: [otherTaskExample], more: false },
      currentCycle: { items: [task], more: false },
      unblocked: none,
      approvals: { items: [approval], more: false },
      mentions: { items: [{ ...notificationExample, id: id('ntf', 2), kind: 'mentioned' }], more: false },
      updatesDue: { items: [updateDue], more: false },
      plan: [planItem],
      partial: [],
    },
  },
  inboxCounts: {
    response: {
      unread: 3,
      data: [
        { orgId: id('org'), unread: 2, inbox: 5, snoozed: 0, unreadByKind: { mentioned: 1, assigned: 1 } },
        { orgId: id('org', 1), unread: 1, inbox: 1, snoozed: 1, unreadByKind: { commented: 1 } },
      ],
      partial: [],
    },
  },
  approvals: { response: { data: [approval], nextCursor: null, partial: [] } },
  search: {
    response: {
      data: [
        {
          orgId: id('org'),
          type: 'task',
          id: id('task'),
          key: 'ENG-42',
          title: 'Fix the login redirect',
          snippet: 'Users land on a blank page after login when the session expired.',
          score: 1,
          parent: { type: 'team', id: id('team') },
          updatedAt: at,
        },
        {
          orgId: id('org', 1),
          type: 'comment',
          id: id('cmt'),
          key: null,
          title: null,
          snippet: 'The login redirect also breaks on mobile.',
          score: 0.82,
          parent: { type: 'task', id: id('task', 1) },
          updatedAt: at,
        },
      ],
      nextCursor: cursor,
      partial: [{ orgId: id('org', 2), code: 'timeout' }],
    },
  },
  inbox: { response: { data: [notificationExample], nextCursor: null, partial: [] } },
  activity: {
    response: {
      data: [
        {
          id: id('evt'),
          orgId: id('org'),
          seq: 1204,
          kind: 'task.updated',
          actorId: id('mem'),
          resourceType: 'task',
          resourceId: id('task'),
          teamId: id('team'),
          data: {
            task: { ...taskExample, title: 'Fix the login redirect' },
            changes: { title: { before: 'Fix login', after: 'Fix the login redirect' } },
          },
          createdAt: at,
        },
      ],
      nextCursor: cursor,
      partial: [],
    },
  },
  resolve: {
    response: {
      data: [
        { orgId: id('org'), type: 'task', id: id('task'), key: 'ENG-42', title: 'Fix the login redirect' },
      ],
      partial: [],
    },
  },
}

import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'

// States by rank (teams/examples.ts): 0 Todo, 1 Triage, 6 Canceled, 7 Duplicate.
/** A request from outside the team, waiting in Triage: the sample world's `id('task', 4)`. */
const request = {
  id: id('task', 4),
  orgId: id('org'),
  teamId: id('team'),
  key: 'ENG-48',
  number: 48,
  title: 'Export fails for reports over 10 MB',
  description: 'The download stops at 10 MB and the file is cut off.',
  stateId: id('wfs', 1),
  stateCategory: 'triage',
  assigneeId: null,
  creatorId: id('mem', 1),
  priority: 'high',
  estimate: null,
  dueDate: null,
  startDate: null,
  parentId: null,
  isBlocked: false,
  createdAt: at,
  updatedAt: at,
  startedAt: null,
  completedAt: null,
  canceledAt: null,
  archivedAt: null,
  cycleId: null,
  projectId: null,
  milestoneId: null,
  labelIds: [],
  fields: {},
}

const accepted = {
  ...request,
  stateId: id('wfs'),
  stateCategory: 'unstarted',
  assigneeId: id('mem'),
  labelIds: [id('lbl')],
  cycleId: id('cyc'),
  updatedAt: later,
}
const canceled = {
  ...request,
  stateId: id('wfs', 6),
  stateCategory: 'canceled',
  canceledAt: later,
  updatedAt: later,
}

export const triageExamples = {
  list: { response: { data: [{ id: request.id, task: request, snoozedUntil: null }], nextCursor: null } },
  create: {
    request: { title: request.title, description: request.description, priority: 'high' },
    response: request,
  },
  accept: {
    request: {
      stateId: accepted.stateId,
      assigneeId: accepted.assigneeId,
      labelIds: accepted.labelIds,
      cycleId: accepted.cycleId,
    },
    response: accepted,
  },
  decline: {
    request: { reason: 'Reports over 10 MB are not supported; use the scheduled export.' },
    response: canceled,
  },
  snooze: {
    request: { until: '2030-01-20T09:00:00.000Z' },
    response: { id: request.id, task: request, snoozedUntil: '2030-01-20T09:00:00.000Z' },
  },
} satisfies Record<string, OperationExamples>

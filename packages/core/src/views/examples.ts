import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

export const viewExample = {
  id: id('view'),
  orgId: id('org'),
  name: 'Urgent and blocked',
  description: 'What needs unblocking first.',
  model: 'tasks',
  filter: { priority: 'urgent', blocked: true, sort: 'dueDate' },
  visibility: 'team',
  teamId: id('team'),
  ownerId: id('mem'),
  createdAt: at,
  updatedAt: at,
}

export const viewExamples: Record<'list' | 'get' | 'create' | 'update' | 'results', OperationExamples> = {
  list: { response: { data: [viewExample], nextCursor: null } },
  get: { response: viewExample },
  create: {
    request: {
      name: viewExample.name,
      description: viewExample.description,
      filter: viewExample.filter,
      teamId: viewExample.teamId,
    },
    response: viewExample,
  },
  update: {
    request: { filter: { priority: 'urgent' } },
    response: { ...viewExample, filter: { priority: 'urgent' }, updatedAt: '2030-01-14T09:00:00.000Z' },
  },
  results: { response: { model: 'tasks', data: [taskExample], nextCursor: null } },
}

const preferences = {
  viewId: id('view'),
  effective: {
    layout: 'board',
    groupBy: 'state',
    subGroupBy: null,
    orderBy: 'priority',
    columns: ['key', 'title', 'assignee', 'dueDate'],
    showEmptyGroups: false,
    showSubtasks: true,
  },
  viewDefault: { layout: 'board', groupBy: 'state', columns: ['key', 'title', 'assignee', 'dueDate'] },
  mine: { orderBy: 'priority' },
  updatedAt: at,
}

export const viewPreferenceExamples: Record<'get' | 'put', OperationExamples> = {
  get: { response: preferences },
  put: { request: { level: 'mine', preferences: { orderBy: 'priority' } }, response: preferences },
}

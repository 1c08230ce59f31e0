import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

export const duplicateExample: OperationExamples = {
  request: { title: 'Rotate the staging credentials', subtasks: true },
  response: {
    id: id('task', 1),
    orgId: id('org'),
    teamId: id('team'),
    key: 'ENG-43',
    number: 43,
    title: 'Rotate the staging credentials',
    description: 'Follow the runbook.',
    stateId: id('wfs'),
    stateCategory: 'unstarted',
    assigneeId: id('mem'),
    creatorId: id('mem'),
    priority: 'high',
    estimate: 2,
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
    labelIds: [id('lbl')],
    fields: {},
  },
}

import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const org = id('org')
const at = '2030-01-06T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const statusExample = {
  id: id('pst'),
  orgId: org,
  name: 'In Progress',
  category: 'started',
  color: '#f2c94c',
  description: null,
  position: 2,
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
}

export const projectExample = {
  id: id('proj'),
  orgId: org,
  name: 'Launch',
  description: 'Ship the public beta.',
  icon: '🚀',
  color: '#5e6ad2',
  statusId: id('pst'),
  statusCategory: 'started',
  leadId: id('mem'),
  teamIds: [id('team'), id('team', 1)],
  labelIds: [id('lbl')],
  fields: {},
  priority: 'high',
  startDate: '2030-01-06',
  targetDate: '2030-03-31',
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
  startedAt: at,
  completedAt: null,
  canceledAt: null,
  archivedAt: null,
  convertedFromTaskId: null,
  health: 'atRisk',
  lastUpdateAt: at,
  blocked: true,
  openBlockers: 1,
  updateCadence: 'weekly',
  updateWeekday: 'friday',
  nextUpdateDueAt: '2030-01-11T00:00:00.000Z',
  updateDue: false,
}

export const milestoneExample = {
  id: id('mile'),
  orgId: org,
  projectId: id('proj'),
  name: 'Beta',
  description: null,
  targetDate: '2030-02-15',
  position: 0,
  status: 'next',
  progress: {
    total: { tasks: 4, points: 7 },
    byCategory: {
      triage: { tasks: 0, points: 0 },
      backlog: { tasks: 1, points: 2 },
      unstarted: { tasks: 1, points: 1 },
      started: { tasks: 1, points: 3 },
      completed: { tasks: 1, points: 1 },
      canceled: { tasks: 0, points: 0 },
    },
    completedRatio: 0.1429,
  },
  createdAt: at,
  updatedAt: at,
}

const tally = (tasks: number, points: number) => ({ tasks, points })
export const progressExample = {
  projectId: id('proj'),
  total: tally(10, 24),
  byCategory: {
    triage: tally(0, 0),
    backlog: tally(2, 5),
    unstarted: tally(3, 6),
    started: tally(2, 5),
    completed: tally(2, 6),
    canceled: tally(1, 2),
  },
  completedRatio: 0.2727,
}

export const teamExample = {
  id: id('team'),
  orgId: org,
  name: 'Engineering',
  key: 'ENG',
  description: null,
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
}

export const taskExample = {
  id: id('task'),
  orgId: org,
  teamId: id('team'),
  key: 'ENG-42',
  number: 42,
  title: 'Write the launch post',
  description: null,
  stateId: id('wfs'),
  stateCategory: 'started',
  assigneeId: id('mem'),
  creatorId: id('mem'),
  priority: 'medium',
  estimate: 2,
  dueDate: null,
  startDate: null,
  parentId: null,
  isBlocked: false,
  createdAt: at,
  updatedAt: at,
  startedAt: at,
  completedAt: null,
  canceledAt: null,
  archivedAt: null,
  cycleId: null,
  projectId: id('proj'),
  milestoneId: id('mile'),
  labelIds: [],
  fields: {},
}

type Shapes = 'list' | 'get' | 'create' | 'update' | 'archive' | 'restore'
const shapes = (
  item: unknown,
  create: unknown,
  update: unknown,
): Partial<Record<Shapes, OperationExamples>> => ({
  list: { response: page(item) },
  get: { response: item },
  create: { request: create, response: item },
  update: { request: update, response: item },
  archive: { response: item },
  restore: { response: item },
})

export const projectExamples = shapes(
  projectExample,
  { name: 'Launch', teamIds: [id('team'), id('team', 1)], leadId: id('mem'), targetDate: '2030-03-31' },
  { statusId: id('pst'), targetDate: '2030-04-15', updateCadence: 'weekly', updateWeekday: 'friday' },
)
export const milestoneExamples = shapes(
  milestoneExample,
  { name: 'Beta', targetDate: '2030-02-15' },
  { targetDate: '2030-02-22' },
)
export const statusExamples = shapes(
  statusExample,
  { name: 'In Review', category: 'started' },
  { color: '#0f783c' },
)
export const examples = {
  reorder: { request: { statusIds: [id('pst'), id('pst', 1)] }, response: { data: [statusExample] } },
  teamAdd: { response: projectExample },
  teams: { response: page(teamExample) },
  tasks: { response: page(taskExample) },
  progress: { response: progressExample },
} satisfies Record<string, OperationExamples>

export const closeExamples = {
  complete: {
    request: { openTasks: 'move', moveTasksTo: id('proj', 1) },
    response: { ...projectExample, statusCategory: 'completed', completedAt: at },
  },
  cancel: {
    request: { openTasks: 'cancel', reason: 'Superseded by the new onboarding.' },
    response: { ...projectExample, statusCategory: 'canceled', canceledAt: at },
  },
} satisfies Record<string, OperationExamples>

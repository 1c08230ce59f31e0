import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
// Project statuses by rank: 0 In Progress, 1 Backlog, 2 Planned, 3 Paused, 4 Completed, 5 Canceled,
// 6 In Review (one the org added).
const org = id('org')
const later = '2030-01-13T16:00:00.000Z'
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
  labelIds: [id('lbl', 2)],
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
  updateDue: true,
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

/** Launch as created: in Backlog, no status update yet, nothing blocking it. */
const newProject = {
  ...projectExample,
  statusId: id('pst', 1),
  statusCategory: 'backlog',
  icon: null,
  labelIds: [],
  startDate: null,
  startedAt: null,
  health: null,
  lastUpdateAt: null,
  blocked: false,
  openBlockers: 0,
  updateDue: false,
}

export const projectExamples: Partial<Record<Shapes, OperationExamples>> = {
  list: {
    response: {
      data: [
        projectExample,
        {
          ...newProject,
          id: id('proj', 1),
          name: 'Single sign-on',
          description: 'SAML and OIDC sign-in for Acme Labs.',
          icon: '🔐',
          teamIds: [id('team')],
          priority: 'medium',
          targetDate: '2030-05-29',
        },
      ],
      nextCursor: null,
    },
  },
  get: { response: projectExample },
  // The creator and the lead follow it, and the lead joins it.
  create: {
    request: {
      name: 'Launch',
      description: 'Ship the public beta.',
      teamIds: [id('team'), id('team', 1)],
      leadId: id('mem'),
      priority: 'high',
      targetDate: '2030-03-31',
      updateCadence: 'weekly',
    },
    response: newProject,
  },
  update: {
    request: { statusId: id('pst'), targetDate: '2030-04-15' },
    response: { ...projectExample, targetDate: '2030-04-15', updatedAt: later },
  },
  archive: {
    response: {
      ...projectExample,
      updatedAt: later,
      archivedAt: later,
      nextUpdateDueAt: null,
      updateDue: false,
    },
  },
  restore: { response: { ...projectExample, updatedAt: later } },
}
export const milestoneExamples = shapes(
  milestoneExample,
  { name: 'Beta', targetDate: '2030-02-15' },
  { targetDate: '2030-02-22' },
)
const DEFAULT_STATUSES = [
  { rank: 1, name: 'Backlog', category: 'backlog', color: '#bec2c8' },
  { rank: 2, name: 'Planned', category: 'planned', color: '#95a2b3' },
  { rank: 0, name: 'In Progress', category: 'started', color: '#f2c94c' },
  { rank: 3, name: 'Paused', category: 'paused', color: '#e07b39' },
  { rank: 4, name: 'Completed', category: 'completed', color: '#5e6ad2' },
  { rank: 5, name: 'Canceled', category: 'canceled', color: '#6b6f76' },
]
const statusAt = (s: (typeof DEFAULT_STATUSES)[number], position: number) => ({
  ...statusExample,
  id: id('pst', s.rank),
  name: s.name,
  category: s.category,
  color: s.color,
  position,
})
/** A status the org added after the defaults: the end of the list. */
const inReview = {
  ...statusExample,
  id: id('pst', 6),
  name: 'In Review',
  color: '#0f783c',
  position: 6,
  createdAt: later,
  updatedAt: later,
}
export const statusExamples: Partial<Record<Shapes, OperationExamples>> = {
  list: { response: { data: [...DEFAULT_STATUSES.map(statusAt), inReview], nextCursor: null } },
  get: { response: statusExample },
  create: { request: { name: 'In Review', category: 'started', color: '#0f783c' }, response: inReview },
  update: {
    request: { description: 'Someone is building it.' },
    response: { ...statusExample, description: 'Someone is building it.', updatedAt: later },
  },
  archive: { response: { ...inReview, archivedAt: later } },
  restore: { response: inReview },
}
const projectTeamExample = { projectId: projectExample.id, teamId: projectExample.teamIds[0], addedAt: at }
export const examples = {
  // In Review right after In Progress.
  move: {
    request: { afterId: id('pst', 0) },
    response: { ...inReview, position: 3, updatedAt: later },
  },
  teamAdd: { response: projectTeamExample },
  teams: { response: page(projectTeamExample) },
  tasks: { response: page(taskExample) },
  progress: { response: progressExample },
} satisfies Record<string, OperationExamples>

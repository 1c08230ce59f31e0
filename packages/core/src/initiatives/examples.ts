import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const initiativeExample = {
  id: id('ini'),
  orgId: id('org'),
  name: 'Self-serve onboarding',
  description: 'New workspaces reach their first finished task **without help**.',
  ownerId: id('mem'),
  status: 'active',
  labelIds: [id('lbl', 2)],
  targetDate: '2030-06-30',
  parentId: null,
  health: 'atRisk',
  lastUpdateAt: at,
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
  startedAt: at,
  completedAt: null,
  canceledAt: null,
  archivedAt: null,
}

export const metricExample = {
  initiativeId: initiativeExample.id,
  unit: 'percentage',
  currencyCode: null,
  precision: 0,
  initial: 20,
  target: 45,
  current: 30,
  progressSource: 'manual',
  progress: 0.4,
  updatedAt: at,
}

export const metricValueExample = {
  id: id('imv'),
  initiativeId: initiativeExample.id,
  value: 30,
  note: 'Guided setup doubled activation in the pilot.',
  authorId: id('mem'),
  createdAt: at,
}

const child = { ...initiativeExample, id: id('ini', 1), name: 'Guided setup', parentId: initiativeExample.id }

const linkExample = {
  initiativeId: initiativeExample.id,
  projectId: id('proj'),
  position: 0,
  addedAt: at,
  name: 'Launch',
  health: 'atRisk',
}

const memberExample = { initiativeId: initiativeExample.id, memberId: id('mem', 1), addedAt: at }

const tally = (tasks: number, points: number) => ({ tasks, points })

const rollupExample = {
  initiativeId: initiativeExample.id,
  projects: 2,
  subInitiatives: 1,
  total: tally(12, 20),
  byCategory: {
    triage: tally(0, 0),
    backlog: tally(2, 3),
    unstarted: tally(3, 5),
    started: tally(2, 4),
    completed: tally(4, 6),
    canceled: tally(1, 2),
  },
  completedRatio: 0.3333,
  progress: 0.4,
  progressSource: 'metric',
  computedHealth: {
    value: 'offTrack',
    summary: '1 project off track: Launch; 1 initiative at risk: Self-serve onboarding',
    reasons: [
      { type: 'project', id: id('proj'), name: 'Launch', health: 'offTrack' },
      { type: 'initiative', id: initiativeExample.id, name: 'Self-serve onboarding', health: 'atRisk' },
    ],
  },
}

const treeExample = {
  data: [
    {
      id: initiativeExample.id,
      parentId: null,
      depth: 0,
      name: initiativeExample.name,
      status: 'active',
      health: 'atRisk',
      computedHealth: 'offTrack',
      completedRatio: 0.3333,
      projects: 2,
    },
    {
      id: child.id,
      parentId: initiativeExample.id,
      depth: 1,
      name: child.name,
      status: 'active',
      health: null,
      computedHealth: 'offTrack',
      completedRatio: 0.25,
      projects: 1,
    },
  ],
}

const historyEntry = {
  id: id('ihst'),
  initiativeId: initiativeExample.id,
  actorId: id('mem'),
  action: 'updated',
  changes: { status: { before: 'planned', after: 'active' }, startedAt: { before: null, after: at } },
  createdAt: at,
}

const updateExample = {
  id: id('upd'),
  orgId: id('org'),
  subjectType: 'initiative',
  subjectId: initiativeExample.id,
  body: 'Guided setup is late; the import path is on track.',
  health: 'atRisk',
  authorId: id('mem'),
  progress: { tasks: 12, completedTasks: 4, completedRatio: 0.3333 },
  createdAt: at,
  updatedAt: at,
  editedAt: null,
  archivedAt: null,
}

export const initiativeExamples: Partial<
  Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore', OperationExamples>
> = {
  list: { response: page(initiativeExample) },
  get: { response: { ...initiativeExample, metric: metricExample } },
  create: {
    request: { name: initiativeExample.name, ownerId: initiativeExample.ownerId, status: 'active' },
    response: { ...initiativeExample, health: null, lastUpdateAt: null },
  },
  update: {
    request: { status: 'completed' },
    response: { ...initiativeExample, status: 'completed', completedAt: at },
  },
  archive: { response: { ...initiativeExample, archivedAt: at } },
  restore: { response: initiativeExample },
}

export const examples = {
  tree: { response: treeExample } satisfies OperationExamples,
  rollup: { response: rollupExample } satisfies OperationExamples,
  projects: { response: page(linkExample) } satisfies OperationExamples,
  projectAdd: { response: linkExample } satisfies OperationExamples,
  projectMove: { request: { beforeId: id('proj', 5) }, response: linkExample } satisfies OperationExamples,
  members: { response: page(memberExample) } satisfies OperationExamples,
  memberAdd: { response: memberExample } satisfies OperationExamples,
  history: { response: page(historyEntry) } satisfies OperationExamples,
  updateCreate: { request: { body: updateExample.body, health: 'atRisk' }, response: updateExample },
  metricSet: {
    request: { unit: 'percentage', precision: 0, initial: 20, target: 45, progressSource: 'manual' },
    response: metricExample,
  } satisfies OperationExamples,
  metricValueCreate: {
    request: { value: 30, note: metricValueExample.note },
    response: metricValueExample,
  } satisfies OperationExamples,
  metricValues: { response: page(metricValueExample) } satisfies OperationExamples,
}

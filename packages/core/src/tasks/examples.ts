import { EXAMPLE_CURSOR, exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
// States by rank (teams/examples.ts): 0 Todo, 1 Triage, 2 Backlog, 3 In Progress, 4 In Review, 5 Done.
const created = '2030-01-08T10:15:00.000Z'
const started = '2030-01-10T09:00:00.000Z'
const at = '2030-01-13T16:00:00.000Z'
const page = (...items: unknown[]) => ({ data: items, nextCursor: null })

/**
 * ENG-42, the task most examples are about: in progress, in the current cycle and the Launch
 * project, blocked by ENG-40 (`id('task', 2)`) and related to ENG-41 (`id('task', 3)`).
 */
export const taskExample = {
  id: id('task'),
  orgId: id('org'),
  teamId: id('team'),
  key: 'ENG-42',
  number: 42,
  title: 'Fix the login redirect',
  description:
    'After a session expires, signing in again lands on a blank page instead of the page the user was on.',
  stateId: id('wfs', 3),
  stateCategory: 'started',
  assigneeId: id('mem'),
  creatorId: id('mem', 1),
  priority: 'high',
  estimate: 3,
  dueDate: '2030-01-17',
  startDate: null,
  parentId: null,
  isBlocked: true,
  createdAt: created,
  updatedAt: at,
  startedAt: started,
  completedAt: null,
  canceledAt: null,
  archivedAt: null,
  cycleId: id('cyc'),
  projectId: id('proj'),
  milestoneId: id('mile'),
  labelIds: [id('lbl')],
  fields: {},
}

/** A task just created in the team's default state (Todo). */
export const otherTaskExample = {
  ...taskExample,
  id: id('task', 1),
  key: 'ENG-43',
  number: 43,
  title: 'Rotate the staging credentials',
  description:
    'The staging database password was printed in a CI log. Rotate it and update the deploy secrets.',
  stateId: id('wfs'),
  stateCategory: 'unstarted',
  creatorId: id('mem'),
  priority: 'urgent',
  estimate: 2,
  dueDate: '2030-01-15',
  isBlocked: false,
  createdAt: at,
  startedAt: null,
  cycleId: null,
  milestoneId: null,
}

/** ENG-40, which blocks ENG-42. */
const blocker = {
  ...taskExample,
  id: id('task', 2),
  key: 'ENG-40',
  number: 40,
  title: 'Keep the return path through the identity provider',
  description: null,
  assigneeId: id('mem', 1),
  estimate: 2,
  dueDate: '2030-01-14',
  isBlocked: false,
  milestoneId: null,
  labelIds: [],
}

/** ENG-41, related to ENG-42. */
const related = {
  ...blocker,
  id: id('task', 3),
  key: 'ENG-41',
  number: 41,
  title: 'Session expiry drops unsaved comments',
  stateId: id('wfs', 2),
  stateCategory: 'backlog',
  assigneeId: null,
  priority: 'medium',
  estimate: null,
  dueDate: null,
  startedAt: null,
  cycleId: null,
}

const subtask = {
  ...otherTaskExample,
  id: id('task', 5),
  key: 'ENG-44',
  number: 44,
  title: 'Add a regression test for the expired-session redirect',
  description: null,
  priority: 'high',
  estimate: 1,
  dueDate: null,
  parentId: id('task'),
  projectId: id('proj'),
  labelIds: [],
}

const later = '2030-01-14T11:20:00.000Z'

export const taskExamples: Record<
  'list' | 'get' | 'create' | 'update' | 'archive' | 'restore' | 'getByKey',
  OperationExamples
> = {
  // Newest first by default.
  list: { response: { data: [otherTaskExample, taskExample], nextCursor: EXAMPLE_CURSOR } },
  get: { response: taskExample },
  getByKey: { response: taskExample },
  // Left out: the state (the team's default, Todo), estimate, dates, parent, cycle, custom fields.
  create: {
    request: {
      teamId: id('team'),
      title: otherTaskExample.title,
      description: otherTaskExample.description,
      assigneeId: id('mem'),
      priority: 'urgent',
      dueDate: '2030-01-15',
      projectId: id('proj'),
      labelIds: [id('lbl')],
    },
    response: { ...otherTaskExample, estimate: null },
  },
  // In review, and urgent now that customers report it.
  update: {
    request: { stateId: id('wfs', 4), priority: 'urgent' },
    response: { ...taskExample, stateId: id('wfs', 4), priority: 'urgent', updatedAt: later },
  },
  archive: { response: { ...taskExample, updatedAt: later, archivedAt: later } },
  restore: { response: { ...taskExample, updatedAt: later } },
}

const sessionWork = {
  ...subtask,
  id: id('task', 6),
  key: 'ENG-45',
  number: 45,
  title: 'Log every forced sign-out',
}

export const batchExamples: Record<'create' | 'update', OperationExamples> = {
  create: {
    request: {
      items: [
        { teamId: id('team'), title: subtask.title, parentId: id('task'), priority: 'high', estimate: 1 },
        { teamId: id('team'), title: sessionWork.title, parentId: id('task'), priority: 'high', estimate: 1 },
      ],
    },
    response: { data: [subtask, sessionWork] },
  },
  // Triage in one request: raise one task, assign and date another.
  update: {
    request: {
      items: [
        { id: id('task'), priority: 'urgent' },
        { id: id('task', 1), assigneeId: id('mem'), dueDate: '2030-01-16' },
      ],
    },
    response: {
      data: [
        { ...taskExample, priority: 'urgent', updatedAt: later },
        { ...otherTaskExample, dueDate: '2030-01-16', updatedAt: later },
      ],
    },
  },
}

export const taskLabelExamples: Record<'add', OperationExamples> = {
  add: {
    response: { ...taskExample, labelIds: [id('lbl'), id('lbl', 1)], updatedAt: later },
  },
}

const entry = { taskId: id('task'), actorId: id('mem', 1), automation: null, createdAt: created }

export const historyExample: OperationExamples = {
  // Newest first: the last field change, back to the creation.
  response: {
    data: [
      {
        ...entry,
        id: id('thst', 2),
        actorId: id('mem'),
        field: 'stateId',
        before: id('wfs'),
        after: id('wfs', 3),
        createdAt: started,
      },
      {
        ...entry,
        id: id('thst', 1),
        field: 'title',
        before: 'Fix login',
        after: taskExample.title,
        createdAt: '2030-01-08T10:17:00.000Z',
      },
      {
        ...entry,
        id: id('thst'),
        field: 'created',
        before: null,
        after: { key: 'ENG-42', title: 'Fix login' },
      },
    ],
    nextCursor: EXAMPLE_CURSOR,
  },
}

export const depthExamples: Record<
  | 'children'
  | 'blockers'
  | 'blockersAdd'
  | 'blocking'
  | 'relations'
  | 'relationsAdd'
  | 'subscribers'
  | 'subscribersAdd',
  OperationExamples
> = {
  children: { response: page(subtask, sessionWork) },
  blockers: { response: page(blocker) },
  // ENG-43 must be done before ENG-42 can be.
  blockersAdd: {
    response: { blockerId: id('task', 1), blockedId: id('task'), createdBy: id('mem'), createdAt: later },
  },
  blocking: {
    response: page({
      ...taskExample,
      id: id('task', 10),
      key: 'ENG-46',
      number: 46,
      title: 'Enable single sign-on for Acme Labs',
    }),
  },
  relations: {
    response: page({ type: 'related', task: related, createdBy: id('mem', 1), createdAt: created }),
  },
  relationsAdd: {
    request: { type: 'related' },
    response: { type: 'related', task: otherTaskExample, createdBy: id('mem'), createdAt: later },
  },
  // The creator and the assignee are subscribed automatically.
  subscribers: {
    response: page(
      { taskId: id('task'), actorId: id('mem'), addedAt: created },
      { taskId: id('task'), actorId: id('mem', 1), addedAt: created },
    ),
  },
  subscribersAdd: { response: { taskId: id('task'), actorId: id('mem', 2), addedAt: later } },
}

/** A copy of ENG-42 for the mobile app, with its open subtasks: same state, assignee and labels, no cycle or project. */
export const duplicateExample: OperationExamples = {
  request: { title: 'Fix the login redirect in the mobile app', subtasks: true },
  response: {
    ...taskExample,
    id: id('task', 7),
    key: 'ENG-47',
    number: 47,
    title: 'Fix the login redirect in the mobile app',
    creatorId: id('mem'),
    isBlocked: false,
    createdAt: later,
    updatedAt: later,
    startedAt: later,
    cycleId: null,
    projectId: null,
    milestoneId: null,
  },
}

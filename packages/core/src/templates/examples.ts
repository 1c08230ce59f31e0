import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { projectExample } from '../projects/examples.ts'
import { taskExample } from '../tasks/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

const taskSkeleton = {
  title: 'Rotate the on-call credentials',
  description: 'Follow the runbook; note anything that surprised you.',
  priority: 'high',
  estimate: 2,
  labelIds: [id('lbl')],
  dueOffsetDays: 2,
}

export const taskTemplateExample = {
  id: id('tmpl'),
  orgId: id('org'),
  teamId: id('team'),
  kind: 'task',
  name: 'Credential rotation',
  description: 'The monthly rotation of shared credentials.',
  task: taskSkeleton,
  project: null,
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
}

const projectSkeleton = {
  name: 'Launch a feature',
  description: 'From design to general availability.',
  durationDays: 42,
  milestones: [
    { name: 'Beta', description: null, targetOffsetDays: 28 },
    { name: 'GA', description: 'Everyone has it.', targetOffsetDays: 42 },
  ],
  tasks: [
    { title: 'Write the design', description: null, priority: 'high', milestone: null, dueOffsetDays: 7 },
    {
      title: 'Invite beta customers',
      description: null,
      priority: 'medium',
      milestone: 0,
      dueOffsetDays: 28,
    },
    {
      title: 'Publish the announcement',
      description: null,
      priority: 'medium',
      milestone: 1,
      dueOffsetDays: 42,
    },
  ],
}

export const projectTemplateExample = {
  ...taskTemplateExample,
  id: id('tmpl', 1),
  kind: 'project',
  name: 'Feature launch',
  description: null,
  task: null,
  project: projectSkeleton,
}

export const templateExamples: Partial<Record<'list' | 'get' | 'create' | 'update', OperationExamples>> = {
  list: { response: page(taskTemplateExample) },
  get: { response: projectTemplateExample },
  create: {
    request: {
      teamId: taskTemplateExample.teamId,
      kind: 'task',
      name: taskTemplateExample.name,
      description: taskTemplateExample.description,
      task: taskSkeleton,
    },
    response: taskTemplateExample,
  },
  update: {
    request: { name: 'Quarterly credential rotation' },
    response: { ...taskTemplateExample, name: 'Quarterly credential rotation', updatedAt: later },
  },
}

/** February's credential rotation from the task template; a project template takes `name` and `teamIds`. */
export const applyExample: OperationExamples = {
  request: { title: 'Rotate the shared credentials: February', startDate: '2030-02-01' },
  response: {
    templateId: taskTemplateExample.id,
    kind: 'task',
    projectId: null,
    milestoneIds: [],
    taskIds: [id('task', 9)],
  },
}

export const saveAsTemplateExample: OperationExamples = {
  request: { name: 'Feature launch' },
  response: projectTemplateExample,
}

export const recurrenceExample = {
  id: id('rcur'),
  orgId: id('org'),
  teamId: id('team'),
  templateId: taskTemplateExample.id,
  name: 'Monthly credential rotation',
  schedule: { frequency: 'monthly', interval: 1, monthDay: 1 },
  startDate: '2030-02-01',
  nextOccurrence: '2030-02-01',
  lastOccurrence: null,
  pausedAt: null,
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
}

export const recurrenceExamples: Partial<Record<'list' | 'get' | 'create' | 'update', OperationExamples>> = {
  list: { response: page(recurrenceExample) },
  get: { response: recurrenceExample },
  create: {
    request: {
      teamId: recurrenceExample.teamId,
      templateId: recurrenceExample.templateId,
      name: recurrenceExample.name,
      schedule: { frequency: 'monthly', monthDay: 1 },
      startDate: '2030-02-01',
    },
    response: recurrenceExample,
  },
  update: {
    request: { schedule: { frequency: 'weekly', interval: 2, weekdays: ['monday', 'thursday'] } },
    response: {
      ...recurrenceExample,
      schedule: { frequency: 'weekly', interval: 2, weekdays: ['monday', 'thursday'] },
      nextOccurrence: '2030-02-03',
      updatedAt: later,
    },
  },
}

export const pauseExample: OperationExamples = {
  response: { ...recurrenceExample, pausedAt: later, nextOccurrence: null, updatedAt: later },
}
export const resumeExample: OperationExamples = {
  response: {
    ...recurrenceExample,
    nextOccurrence: '2030-03-01',
    lastOccurrence: '2030-02-01',
    updatedAt: later,
  },
}
export const occurrencesExample: OperationExamples = {
  response: page({ recurrenceId: id('rcur'), date: '2030-02-01', taskId: id('task'), createdAt: at }),
}

export const reminderExample = {
  id: id('rmd'),
  taskId: id('task'),
  memberId: id('mem'),
  remindAt: '2030-01-20T08:00:00.000Z',
  note: 'Check the vendor answered',
  deliveredAt: null,
  createdAt: at,
}
export const reminderExamples = {
  list: { response: page(reminderExample) },
  create: {
    request: { remindAt: reminderExample.remindAt, note: reminderExample.note },
    response: reminderExample,
  },
} satisfies Record<string, OperationExamples>

const copiedAt = '2030-01-14T10:00:00.000Z'

/**
 * Launch copied for the mobile app from 3 February: its teams, lead, priority, look, cadence, labels,
 * milestones and open tasks, every date moved with it; the copy starts in Backlog.
 */
export const duplicateProjectExample: OperationExamples = {
  request: { name: 'Launch: mobile app', startDate: '2030-02-03', members: false },
  response: {
    ...projectExample,
    id: id('proj', 5),
    name: 'Launch: mobile app',
    statusId: id('pst', 1),
    statusCategory: 'backlog',
    startDate: '2030-02-03',
    targetDate: '2030-05-26',
    creatorId: id('mem'),
    createdAt: copiedAt,
    updatedAt: copiedAt,
    startedAt: null,
    health: null,
    lastUpdateAt: null,
    blocked: false,
    openBlockers: 0,
    nextUpdateDueAt: '2030-01-18T00:00:00.000Z',
    updateDue: false,
  },
}

/** ENG-42 grew: a project in its team and Design's, its subtasks the project's tasks, ENG-42 archived. */
export const convertTaskExample: OperationExamples = {
  request: { name: 'Session handling overhaul', teamIds: [id('team'), id('team', 1)] },
  response: {
    ...projectExample,
    id: id('proj', 6),
    name: 'Session handling overhaul',
    description: taskExample.description,
    icon: null,
    statusId: id('pst', 1),
    statusCategory: 'backlog',
    leadId: null,
    labelIds: [],
    priority: taskExample.priority,
    startDate: null,
    targetDate: null,
    creatorId: id('mem'),
    createdAt: copiedAt,
    updatedAt: copiedAt,
    startedAt: null,
    convertedFromTaskId: taskExample.id,
    health: null,
    lastUpdateAt: null,
    blocked: false,
    openBlockers: 0,
    updateCadence: 'orgDefault',
    nextUpdateDueAt: '2030-01-18T09:00:00.000Z',
    updateDue: false,
  },
}

import { exampleId as id } from '../../kernel/examples.ts'
import type { OperationExamples } from '../../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-14T08:00:00.000Z'
const date = '2030-01-14'

const task = {
  hidden: false,
  orgId: id('org'),
  orgName: 'Acme',
  id: id('task'),
  key: 'ENG-42',
  title: 'Ship the importer',
  stateCategory: 'started',
  dueDate: date,
}
const taskItem = {
  id: id('pli'),
  date,
  position: 0,
  kind: 'task',
  text: null,
  task,
  timeBlock: { start: '09:00', end: '10:30' },
  estimateMinutes: 90,
  source: 'suggested:dueToday',
  carriedFrom: null,
  carryCount: 0,
  doneAt: null,
  doneBy: null,
  createdAt: at,
  updatedAt: at,
}
const textItem = {
  ...taskItem,
  id: id('pli', 1),
  position: 1,
  kind: 'text',
  text: 'Call the printer about the proofs',
  task: null,
  timeBlock: null,
  estimateMinutes: 15,
  source: 'manual',
}
const hiddenItem = {
  ...taskItem,
  id: id('pli', 2),
  position: 2,
  task: { hidden: true, reason: 'no_access' },
  timeBlock: null,
  estimateMinutes: null,
  source: 'manual',
  carriedFrom: '2030-01-13',
  carryCount: 1,
}
const day = { date, items: [taskItem, textItem, hiddenItem] }
const done = {
  ...textItem,
  doneAt: '2030-01-14T11:00:00.000Z',
  doneBy: 'me',
  updatedAt: '2030-01-14T11:00:00.000Z',
}

export const planExamples: Record<
  'list' | 'create' | 'get' | 'update' | 'complete' | 'reopen' | 'move' | 'carryOver' | 'suggestions',
  OperationExamples
> = {
  list: {
    response: {
      from: date,
      to: '2030-01-15',
      days: [day, { date: '2030-01-15', items: [] }],
    },
  },
  create: {
    request: {
      task: { orgId: task.orgId, key: 'ENG-42' },
      timeBlock: { start: '09:00', end: '10:30' },
      estimateMinutes: 90,
      source: 'suggested:dueToday',
    },
    response: taskItem,
  },
  get: { response: textItem },
  update: {
    request: { text: 'Call the printer about the proofs', estimateMinutes: 15 },
    response: textItem,
  },
  complete: { response: done },
  reopen: { response: textItem },
  // The phone call first.
  move: { request: { beforeId: taskItem.id }, response: { ...textItem, position: 0 } },
  carryOver: { response: { date, carried: 1, awayUntil: null, items: [taskItem, textItem, hiddenItem] } },
  suggestions: {
    response: {
      date,
      data: [
        { reason: 'overdue', task: { ...task, id: id('task', 1), key: 'ENG-40', dueDate: '2030-01-10' } },
        { reason: 'unblocked', task: { ...task, id: id('task', 2), key: 'OPS-7', dueDate: null } },
      ],
      partial: [],
    },
  },
}

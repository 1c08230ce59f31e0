import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-14T17:30:00.000Z'
const started = '2030-01-14T15:00:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const entryExample = {
  id: id('tme'),
  orgId: id('org'),
  taskId: id('task'),
  projectId: id('proj'),
  memberId: id('mem'),
  minutes: 90,
  date: '2030-01-14',
  note: 'Reproduced the race and wrote the failing test',
  source: 'manual',
  startedAt: null,
  createdAt: at,
  updatedAt: at,
}
const timerEntry = { ...entryExample, id: id('tme', 1), minutes: 150, source: 'timer', startedAt: started }

export const entryExamples = {
  list: { response: page(entryExample) },
  get: { response: entryExample },
  create: {
    // Logged for today unless `date` names an earlier day.
    request: { minutes: 90, note: entryExample.note },
    response: entryExample,
  },
  update: { request: { minutes: 120 }, response: { ...entryExample, minutes: 120 } },
  summary: {
    response: {
      groupBy: 'person',
      totalMinutes: 1470,
      entries: 14,
      groups: [
        { key: id('mem'), minutes: 960, entries: 9 },
        { key: id('mem', 1), minutes: 510, entries: 5 },
      ],
      truncated: false,
    },
  },
} satisfies Record<string, OperationExamples>

const timer = {
  orgId: id('org'),
  taskId: id('task'),
  note: 'Pairing on the migration',
  startedAt: started,
  elapsedMinutes: 25,
}
export const timerExamples = {
  get: { response: { timer } },
  start: {
    // By id or by key (`{ orgId, key: 'ENG-42' }`).
    request: { task: { orgId: id('org'), id: id('task') }, note: timer.note },
    response: { timer: { ...timer, elapsedMinutes: 0 }, stopped: timerEntry },
  },
  stop: { request: {}, response: { entry: timerEntry, discarded: null } },
} satisfies Record<string, OperationExamples>

export const allocationExample = {
  id: id('alc'),
  orgId: id('org'),
  projectId: id('proj'),
  memberId: id('mem'),
  startDate: '2030-02-03',
  endDate: '2030-03-28',
  unit: 'percent',
  amount: 50,
  note: 'Half-time until the beta',
  personTotal: { allocations: 2, percent: 80, hoursPerWeek: 0 },
  creatorId: id('mem', 1),
  createdAt: at,
  updatedAt: at,
}
export const allocationExamples = {
  list: { response: page(allocationExample) },
  get: { response: allocationExample },
  create: {
    request: {
      projectId: id('proj'),
      memberId: id('mem'),
      startDate: '2030-02-03',
      endDate: '2030-03-28',
      unit: 'percent',
      amount: 50,
      note: 'Half-time until the beta',
    },
    response: allocationExample,
  },
  update: { request: { amount: 60 }, response: { ...allocationExample, amount: 60 } },
} satisfies Record<string, OperationExamples>

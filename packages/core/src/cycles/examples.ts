import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
// Two-week cycles from Monday; on 2030-01-13 cycle 12 (`id('cyc')`) is running, 11 is completed.
const created = '2029-12-30T00:00:00.000Z'
const at = '2030-01-13T16:00:00.000Z'

export const cycleExample = {
  id: id('cyc'),
  orgId: id('org'),
  teamId: id('team'),
  number: 12,
  name: 'Login and sessions',
  description: null,
  startsAt: '2030-01-07T00:00:00.000Z',
  endsAt: '2030-01-21T00:00:00.000Z',
  status: 'active',
  completedAt: null,
  archivedAt: null,
  createdAt: created,
  updatedAt: created,
}

const previous = {
  ...cycleExample,
  id: id('cyc', 1),
  number: 11,
  name: null,
  startsAt: '2029-12-24T00:00:00.000Z',
  endsAt: '2030-01-07T00:00:00.000Z',
  status: 'completed',
  completedAt: '2030-01-07T00:00:00.000Z',
  createdAt: '2029-12-16T00:00:00.000Z',
  updatedAt: '2030-01-07T00:00:00.000Z',
}

const next = {
  ...cycleExample,
  id: id('cyc', 2),
  number: 13,
  name: 'Checkout polish',
  startsAt: '2030-01-21T00:00:00.000Z',
  endsAt: '2030-02-04T00:00:00.000Z',
  status: 'upcoming',
  createdAt: at,
  updatedAt: at,
}

const tally = (tasks: number, points: number) => ({ tasks, points })

export const cycleExamples: Record<
  | 'list'
  | 'get'
  | 'create'
  | 'update'
  | 'archive'
  | 'restore'
  | 'progress'
  | 'complete'
  | 'shiftAll'
  | 'startNow',
  OperationExamples
> = {
  // By start: the completed cycle, the running one, the next.
  list: { response: { data: [previous, cycleExample, next], nextCursor: null } },
  get: { response: cycleExample },
  create: {
    request: { name: next.name, startsAt: next.startsAt, endsAt: next.endsAt },
    response: next,
  },
  update: {
    request: { name: 'Login and sessions' },
    response: { ...cycleExample, updatedAt: at },
  },
  // Only a completed cycle is archived.
  archive: { response: { ...previous, updatedAt: at, archivedAt: at } },
  restore: { response: { ...previous, updatedAt: at } },
  progress: {
    response: {
      cycleId: id('cyc'),
      total: tally(9, 21),
      byCategory: {
        triage: tally(0, 0),
        backlog: tally(0, 0),
        unstarted: tally(3, 6),
        started: tally(3, 8),
        completed: tally(2, 5),
        canceled: tally(1, 2),
      },
      // Completed points over every point but the canceled ones: 5 / 19.
      completedRatio: 0.2632,
    },
  },
  // Ended early: ENG-42 is unfinished and moves to cycle 13.
  complete: {
    response: {
      cycle: { ...cycleExample, status: 'completed', completedAt: at, updatedAt: at },
      nextCycleId: next.id,
      rolledOverTaskIds: [id('task')],
    },
  },
  // The running cycle keeps its start and ends a week later; the next one moves whole.
  shiftAll: {
    request: { days: 7 },
    response: {
      data: [
        { ...cycleExample, endsAt: '2030-01-28T00:00:00.000Z', updatedAt: at },
        { ...next, startsAt: '2030-01-28T00:00:00.000Z', endsAt: '2030-02-11T00:00:00.000Z' },
      ],
    },
  },
  // Cycle 13 starts now; cycle 12 ends now and its unfinished task rolls over.
  startNow: {
    response: {
      cycle: { ...next, startsAt: at, status: 'active' },
      completedCycleId: id('cyc'),
      rolledOverTaskIds: [id('task')],
    },
  },
}

const settings = {
  teamId: id('team'),
  enabled: true,
  durationWeeks: 2,
  cooldownWeeks: 0,
  startWeekday: 'monday',
  autoCreateCount: 2,
  updatedAt: '2029-11-04T10:00:00.000Z',
}

export const cycleSettingsExamples: Record<'get' | 'update', OperationExamples> = {
  get: { response: settings },
  // A cooldown week between cycles, and three cycles planned ahead.
  update: {
    request: { enabled: true, cooldownWeeks: 1, autoCreateCount: 3 },
    response: { ...settings, cooldownWeeks: 1, autoCreateCount: 3, updatedAt: at },
  },
}

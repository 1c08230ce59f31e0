import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.

const day = (date: string, scope: number, added: number, done: number) => ({
  date,
  scopeCount: scope,
  scopePoints: scope * 2,
  addedCount: added,
  addedPoints: added * 2,
  completedCount: done,
  completedPoints: done * 2,
  remainingCount: scope - done,
  remainingPoints: (scope - done) * 2,
})

const week = (weekStart: string, scope: number, started: number, done: number) => ({
  weekStart,
  scopeCount: scope,
  scopePoints: scope * 2,
  startedCount: started,
  startedPoints: started * 2,
  completedCount: done,
  completedPoints: done * 2,
})
const projectSeries = (n: number, scale: number) => ({
  projectId: id('proj', n),
  weeks: [week('2030-01-06', 4 * scale, 1 * scale, 0), week('2030-01-13', 5 * scale, 2 * scale, 2 * scale)],
})
const twoProjects = {
  total: [week('2030-01-06', 12, 3, 0), week('2030-01-13', 15, 6, 6)],
  projects: [projectSeries(0, 1), projectSeries(1, 2)],
}

export const insightExamples: Record<
  | 'burndown'
  | 'throughput'
  | 'cycleTime'
  | 'velocity'
  | 'workload'
  | 'projectHistory'
  | 'programHistory'
  | 'initiativeHistory',
  OperationExamples
> = {
  projectHistory: { response: projectSeries(0, 1) },
  programHistory: { response: { programId: id('prg'), ...twoProjects } },
  initiativeHistory: { response: { initiativeId: id('ini'), ...twoProjects } },
  burndown: {
    response: {
      cycleId: id('cyc'),
      teamId: id('team'),
      startsAt: '2030-01-13T00:00:00.000Z',
      endsAt: '2030-01-27T00:00:00.000Z',
      days: [day('2030-01-13', 8, 8, 0), day('2030-01-14', 9, 1, 2), day('2030-01-15', 9, 0, 4)],
    },
  },
  throughput: {
    response: {
      teamId: id('team'),
      weeks: [
        { weekStart: '2030-01-06', createdCount: 7, completedCount: 5, completedPoints: 11 },
        { weekStart: '2030-01-13', createdCount: 4, completedCount: 6, completedPoints: 13 },
      ],
    },
  },
  cycleTime: {
    response: {
      teamId: id('team'),
      weeks: [
        {
          weekStart: '2030-01-06',
          completedCount: 0,
          averageHours: null,
          minHours: null,
          maxHours: null,
          averageLeadHours: null,
        },
        {
          weekStart: '2030-01-13',
          completedCount: 6,
          averageHours: 30.5,
          minHours: 2.25,
          maxHours: 96,
          averageLeadHours: 140.75,
        },
      ],
    },
  },
  velocity: {
    response: {
      teamId: id('team'),
      cycles: [
        {
          cycleId: id('cyc', 1),
          number: 8,
          name: null,
          startsAt: '2030-01-13T00:00:00.000Z',
          endsAt: '2030-01-27T00:00:00.000Z',
          completedAt: null,
          scopeCount: 9,
          scopePoints: 18,
          completedCount: 4,
          completedPoints: 8,
        },
        {
          cycleId: id('cyc'),
          number: 7,
          name: 'Billing',
          startsAt: '2029-12-30T00:00:00.000Z',
          endsAt: '2030-01-13T00:00:00.000Z',
          completedAt: '2030-01-13T00:05:00.000Z',
          scopeCount: 10,
          scopePoints: 21,
          completedCount: 10,
          completedPoints: 21,
        },
      ],
      averageCompletedPoints: 21,
      averageCompletedCount: 10,
    },
  },
  workload: {
    response: {
      asOf: '2030-01-15T09:00:00.000Z',
      assignees: [
        {
          assigneeId: id('mem'),
          openCount: 6,
          openPoints: 13,
          startedCount: 2,
          overdueCount: 1,
          unestimatedCount: 1,
        },
        {
          assigneeId: null,
          openCount: 3,
          openPoints: 0,
          startedCount: 0,
          overdueCount: 0,
          unestimatedCount: 3,
        },
      ],
    },
  },
}

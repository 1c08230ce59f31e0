import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import { projectExample } from '../projects/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const org = id('org')
const at = '2030-01-06T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const programExample = {
  id: id('prg'),
  orgId: org,
  name: 'Platform reliability',
  description: 'Keep the platform fast and up.',
  icon: '🛡️',
  color: '#0f9d58',
  ownerId: id('mem'),
  status: 'active',
  labelIds: [id('lbl', 2)],
  retiredAt: null,
  health: 'onTrack',
  lastUpdateAt: at,
  creatorId: id('mem'),
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
}

const memberExample = { programId: programExample.id, memberId: id('mem', 1), addedAt: at }
const programTeamExample = { programId: programExample.id, teamId: id('team'), addedAt: at }

const programProjectExample = {
  programId: programExample.id,
  projectId: projectExample.id,
  addedAt: at,
  position: 0,
  project: projectExample,
}

const tally = (tasks: number, points: number) => ({ tasks, points })

export const programExamples = {
  list: { response: page(programExample) },
  get: { response: programExample },
  create: {
    request: {
      name: 'Platform reliability',
      description: 'Keep the platform fast and up.',
      ownerId: id('mem'),
    },
    response: programExample,
  },
  update: { request: { status: 'paused' }, response: { ...programExample, status: 'paused' } },
  archive: { response: { ...programExample, archivedAt: at } },
  restore: { response: programExample },
} satisfies Record<string, OperationExamples>

export const examples = {
  projects: { response: page(programProjectExample) },
  projectAdd: { response: programProjectExample },
  // The program's second project moved before its first.
  projectMove: { request: { beforeId: id('proj', 3) }, response: programProjectExample },
  members: { response: page(memberExample) },
  memberAdd: { response: memberExample },
  teams: { response: page(programTeamExample) },
  teamAdd: { response: programTeamExample },
  history: {
    response: page({
      id: id('pghs'),
      programId: programExample.id,
      actorId: id('mem'),
      field: 'status',
      before: 'active',
      after: 'paused',
      createdAt: at,
    }),
  },
  rollup: {
    response: {
      programId: programExample.id,
      health: 'onTrack',
      computedHealth: { value: 'atRisk', reasons: ['1 project at risk: Launch'] },
      projects: { total: 3, open: 2, byHealth: { onTrack: 1, atRisk: 1, offTrack: 0, none: 0 } },
      total: tally(12, 20),
      byCategory: {
        triage: tally(0, 0),
        backlog: tally(2, 3),
        unstarted: tally(3, 5),
        started: tally(2, 4),
        completed: tally(4, 8),
        canceled: tally(1, 0),
      },
      completedRatio: 0.4,
    },
  },
} satisfies Record<string, OperationExamples>

import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const created = '2030-01-06T09:30:00.000Z'
const at = '2030-01-13T16:00:00.000Z'

export const teamExample = {
  id: id('team'),
  orgId: id('org'),
  name: 'Engineering',
  key: 'ENG',
  description: null,
  createdAt: created,
  updatedAt: created,
  archivedAt: null,
}

const design = { ...teamExample, id: id('team', 1), name: 'Design', key: 'DES' }
const described = {
  ...teamExample,
  description: 'Web app and public API. On call for checkout.',
  updatedAt: at,
}

export const teamExamples: Record<
  'list' | 'get' | 'create' | 'update' | 'archive' | 'restore',
  OperationExamples
> = {
  list: { response: { data: [teamExample, design], nextCursor: null } },
  get: { response: teamExample },
  // A new team starts with the default workflow (Backlog, Todo, In Progress, In Review, Done, Canceled, Duplicate).
  create: { request: { name: 'Engineering', key: 'ENG' }, response: teamExample },
  update: { request: { description: described.description }, response: described },
  archive: { response: { ...teamExample, updatedAt: at, archivedAt: at } },
  restore: { response: { ...teamExample, updatedAt: at } },
}

/**
 * The team's workflow, in order: the defaults, with Triage first since the team turned triage on
 * (`teamSettings`). Example ids by rank: Todo is the main state (new tasks start there), then
 * Triage, Backlog, In Progress, In Review, Done, Canceled and Duplicate.
 */
const DEFAULTS = [
  { rank: 1, name: 'Triage', category: 'triage', color: '#fc7840' },
  { rank: 2, name: 'Backlog', category: 'backlog', color: '#bec2c8' },
  { rank: 0, name: 'Todo', category: 'unstarted', color: '#e2e2e2' },
  { rank: 3, name: 'In Progress', category: 'started', color: '#f2c94c' },
  { rank: 4, name: 'In Review', category: 'started', color: '#0f783c' },
  { rank: 5, name: 'Done', category: 'completed', color: '#5e6ad2' },
  { rank: 6, name: 'Canceled', category: 'canceled', color: '#95a2b3' },
  { rank: 7, name: 'Duplicate', category: 'canceled', color: '#95a2b3' },
] as const

const state = (s: { rank: number; name: string; category: string; color: string }, position: number) => ({
  id: id('wfs', s.rank),
  orgId: id('org'),
  teamId: id('team'),
  name: s.name,
  category: s.category,
  color: s.color,
  description: null as string | null,
  position,
  createdAt: created,
  updatedAt: created,
  archivedAt: null as string | null,
})

export const stateExamples = DEFAULTS.map(state)
/** Todo, the main state. */
export const stateExample = stateExamples[2]!
/** A QA step between In Review and Done. */
const qa = {
  ...state({ rank: 8, name: 'QA', category: 'started', color: '#26b5ce' }, 5),
  createdAt: at,
  updatedAt: at,
}
export const workflowStateExamples: Record<
  'list' | 'move' | 'get' | 'create' | 'update' | 'archive',
  OperationExamples
> = {
  list: { response: { data: stateExamples } },
  // Todo before Backlog: new work is triaged straight into Todo.
  move: {
    request: { beforeId: id('wfs', 2) },
    response: { ...stateExample, position: 1, updatedAt: at },
  },
  get: { response: stateExample },
  create: { request: { name: 'QA', category: 'started', color: '#26b5ce', position: 5 }, response: qa },
  update: {
    request: { description: 'Ready to pick up: scoped, estimated and unblocked.' },
    response: {
      ...stateExample,
      description: 'Ready to pick up: scoped, estimated and unblocked.',
      updatedAt: at,
    },
  },
  // Only a state no task is in can be archived.
  archive: { response: { ...state(DEFAULTS[7], 7), updatedAt: at, archivedAt: at } },
}

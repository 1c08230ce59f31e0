import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

const low = { id: id('cfo'), name: 'Low', color: '#4caf50', disabled: false }
const high = { id: id('cfo', 1), name: 'High', color: '#f44336', disabled: false }

export const customFieldExample = {
  id: id('cf'),
  orgId: id('org'),
  name: 'Customer impact',
  description: 'How much customers feel it.',
  type: 'select',
  recordKinds: ['task', 'project'],
  teamIds: [id('team')],
  options: [low, high],
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
}

const renamed = { ...customFieldExample, name: 'Impact', updatedAt: later }
const withCritical = {
  ...customFieldExample,
  options: [low, high, { id: id('cfo', 2), name: 'Critical', color: null, disabled: false }],
  updatedAt: later,
}

export const customFieldExamples: Partial<
  Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore', OperationExamples>
> = {
  list: { response: page(customFieldExample) },
  get: { response: customFieldExample },
  create: {
    request: {
      name: customFieldExample.name,
      description: customFieldExample.description,
      type: 'select',
      teamIds: customFieldExample.teamIds,
      options: [
        { name: 'Low', color: '#4caf50' },
        { name: 'High', color: '#f44336' },
      ],
    },
    response: customFieldExample,
  },
  update: { request: { name: 'Impact' }, response: renamed },
  archive: { response: { ...customFieldExample, archivedAt: later, updatedAt: later } },
  restore: { response: { ...customFieldExample, updatedAt: later } },
}

export const optionExamples = {
  create: { request: { name: 'Critical' }, response: withCritical },
  update: {
    request: { disabled: true },
    response: { ...customFieldExample, options: [{ ...low, disabled: true }, high], updatedAt: later },
  },
  move: {
    request: { afterId: high.id },
    response: { ...customFieldExample, options: [high, low], updatedAt: later },
  },
} satisfies Record<string, OperationExamples>

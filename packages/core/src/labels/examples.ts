import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
// Labels by rank: 0 Bug and 1 Security (Engineering's), 2 Customer request (the org's).
const created = '2030-01-06T09:30:00.000Z'
const at = '2030-01-13T16:00:00.000Z'

export const labelExample = {
  id: id('lbl'),
  orgId: id('org'),
  teamId: id('team'),
  parentId: null,
  isGroup: false,
  name: 'Bug',
  color: '#eb5757',
  description: 'Something that worked no longer does.',
  creatorId: id('mem'),
  createdAt: created,
  updatedAt: created,
  archivedAt: null,
}

const orgLabel = {
  ...labelExample,
  id: id('lbl', 2),
  teamId: null,
  name: 'Customer request',
  color: '#26b5ce',
  description: 'Asked for by a customer: link the conversation.',
}

const regression = {
  ...labelExample,
  id: id('lbl', 3),
  name: 'Regression',
  color: '#f2994a',
  description: 'Broken by a recent release.',
  createdAt: at,
  updatedAt: at,
}

export const labelExamples: Record<
  'list' | 'get' | 'create' | 'update' | 'archive' | 'restore',
  OperationExamples
> = {
  list: { response: { data: [labelExample, orgLabel], nextCursor: null } },
  get: { response: labelExample },
  create: {
    request: {
      name: regression.name,
      teamId: id('team'),
      color: regression.color,
      description: regression.description,
    },
    response: regression,
  },
  update: {
    request: { name: 'Defect', description: 'Something that worked no longer does: say since when.' },
    response: {
      ...labelExample,
      name: 'Defect',
      description: 'Something that worked no longer does: say since when.',
      updatedAt: at,
    },
  },
  archive: { response: { ...labelExample, updatedAt: at, archivedAt: at } },
  restore: { response: { ...labelExample, updatedAt: at } },
}

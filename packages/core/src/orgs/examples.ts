import { EXAMPLE_CURSOR, exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const created = '2030-01-06T09:30:00.000Z'
const at = '2030-01-13T16:00:00.000Z'

export const orgExample = {
  id: id('org'),
  name: 'Acme',
  slug: 'acme',
  createdAt: created,
  updatedAt: created,
  archivedAt: null,
}

/** Ada, an admin of Acme (the person `me.get` answers for). */
export const memberExample = {
  id: id('mem'),
  orgId: id('org'),
  userId: id('usr'),
  kind: 'person',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  role: 'admin',
  status: 'active',
  createdAt: created,
  updatedAt: created,
}

const grace = {
  ...memberExample,
  id: id('mem', 1),
  userId: id('usr', 1),
  name: 'Grace Hopper',
  email: 'grace@example.com',
  role: 'member',
  away: { until: '2030-01-17' },
}

export const orgExamples: Record<
  'create' | 'list' | 'get' | 'update' | 'archive' | 'restore',
  OperationExamples
> = {
  // Without a `slug`, one is made from the name.
  create: { request: { name: 'Acme' }, response: orgExample },
  list: {
    response: {
      data: [orgExample, { ...orgExample, id: id('org', 1), name: 'Acme Labs', slug: 'acme-labs' }],
      nextCursor: null,
    },
  },
  get: { response: orgExample },
  update: {
    request: { name: 'Acme Inc.', slug: 'acme-inc' },
    response: { ...orgExample, name: 'Acme Inc.', slug: 'acme-inc', updatedAt: at },
  },
  archive: { response: { ...orgExample, updatedAt: at, archivedAt: at } },
  restore: { response: { ...orgExample, updatedAt: at } },
}

export const memberExamples: Record<
  'list' | 'get' | 'update' | 'deactivate' | 'reactivate',
  OperationExamples
> = {
  // Grace is away this week: the list shows until when, never her note.
  list: { response: { data: [memberExample, grace], nextCursor: EXAMPLE_CURSOR } },
  get: { response: memberExample },
  update: {
    request: { role: 'admin' },
    response: { ...memberExample, updatedAt: at },
  },
  deactivate: { response: { ...memberExample, status: 'deactivated', updatedAt: at } },
  reactivate: { response: { ...memberExample, updatedAt: at } },
}

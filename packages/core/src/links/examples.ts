import { exampleId as id } from '../kernel/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'

export const linkExample = {
  id: id('lnk'),
  orgId: id('org'),
  parentType: 'project',
  parentId: id('proj'),
  url: 'https://docs.example.com/specs/billing-v2',
  title: 'Billing v2 spec',
  position: 0,
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
}

/** The list and create examples of one kind of container. */
export function containerLinkExamples(parentType: 'project' | 'program' | 'initiative', prefix: string) {
  const link = { ...linkExample, parentType, parentId: id(prefix) }
  return {
    list: { response: { data: [link], nextCursor: null } },
    create: { request: { url: link.url, title: link.title }, response: link },
  }
}

export const linkItemExamples = {
  get: { response: linkExample },
  update: {
    request: { title: 'Billing v2 spec (final)', position: 2.5 },
    response: { ...linkExample, title: 'Billing v2 spec (final)', position: 2.5 },
  },
}

import { exampleId as id } from '../kernel/examples.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'

/** A link of the sample task (the item operations' examples name it). */
export const linkExample = {
  id: id('lnk'),
  orgId: id('org'),
  parentType: 'task',
  parentId: id('task'),
  url: 'https://github.com/acme/web/pull/1287',
  title: 'Keep the return path through sign-in',
  position: 0,
  createdBy: id('mem'),
  createdAt: at,
  updatedAt: at,
}

/** The list and create examples of one kind of parent. */
export function parentLinkExamples(
  parentType: 'task' | 'project' | 'program' | 'initiative',
  prefix: string,
) {
  const link = {
    ...linkExample,
    parentType,
    parentId: id(prefix),
    url: 'https://docs.example.com/specs/billing-v2',
    title: 'Billing v2 spec',
  }
  return {
    list: { response: { data: [link], nextCursor: null } },
    create: { request: { url: link.url, title: link.title }, response: link },
  }
}

export const linkItemExamples = {
  get: { response: linkExample },
  update: {
    request: { title: 'PR #1287: keep the return path through sign-in' },
    response: { ...linkExample, title: 'PR #1287: keep the return path through sign-in', updatedAt: later },
  },
  move: {
    request: { afterId: id('lnk', 1) },
    response: { ...linkExample, position: 1, updatedAt: later },
  },
}

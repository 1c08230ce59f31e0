import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const later = '2030-01-14T09:30:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const documentExample = {
  id: id('doc'),
  orgId: id('org'),
  holderType: 'project',
  holderId: id('proj'),
  title: 'Billing migration: design',
  content: '## Goal\nMove invoices to the new ledger without downtime.\n',
  icon: '📄',
  version: 1,
  creatorId: id('mem'),
  lastEditorId: id('mem'),
  createdAt: at,
  updatedAt: at,
  archivedAt: null,
  lockedAt: null,
  lockedById: null,
}

const edited = {
  ...documentExample,
  content: `${documentExample.content}\n## Rollout\nBehind a flag, one team at a time.\n`,
  version: 2,
  lastEditorId: id('mem', 1),
  updatedAt: later,
}

export const documentExamples: Partial<
  Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore', OperationExamples>
> = {
  list: { response: page(documentExample) },
  get: { response: documentExample },
  create: {
    request: {
      holderType: 'project',
      holderId: documentExample.holderId,
      title: documentExample.title,
      content: documentExample.content,
      icon: '📄',
    },
    response: documentExample,
  },
  update: { request: { content: edited.content }, response: edited },
  archive: { response: { ...documentExample, archivedAt: later, updatedAt: later } },
  restore: { response: { ...documentExample, updatedAt: later } },
}

export const lockExamples = {
  lock: { response: { ...documentExample, lockedAt: later, lockedById: id('mem'), updatedAt: later } },
  unlock: { response: { ...documentExample, updatedAt: later } },
} satisfies Record<string, OperationExamples>

export const versionExample = {
  id: id('dver'),
  documentId: id('doc'),
  number: 1,
  content: documentExample.content,
  authorId: id('mem'),
  restoredFromId: null,
  createdAt: at,
}

export const versionExamples = {
  list: { response: page({ ...versionExample, id: id('dver', 1), number: 2, content: edited.content }) },
  get: { response: versionExample },
  restore: {
    response: { ...edited, content: documentExample.content, version: 3 },
  },
} satisfies Record<string, OperationExamples>

export const subscriberExample = { documentId: id('doc'), actorId: id('mem'), addedAt: at }
export const subscriberExamples = {
  list: { response: page(subscriberExample) },
  add: { response: subscriberExample },
} satisfies Record<string, OperationExamples>

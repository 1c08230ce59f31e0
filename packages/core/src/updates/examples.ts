import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const page = (item: unknown) => ({ data: [item], nextCursor: null })

export const updateExample = {
  id: id('upd'),
  orgId: id('org'),
  subjectType: 'project',
  subjectId: id('proj'),
  body: 'Beta scope is frozen. **Risk**: the billing migration slipped a week.',
  health: 'atRisk',
  authorId: id('mem'),
  progress: { tasks: 10, completedTasks: 2, completedRatio: 0.2727 },
  createdAt: at,
  updatedAt: at,
  editedAt: null,
  archivedAt: null,
}

export const revisionExample = {
  id: id('urev'),
  updateId: id('upd'),
  body: 'Beta scope is frozen.',
  health: 'onTrack',
  editorId: id('mem'),
  replacedAt: at,
}

const edited = { ...updateExample, editedAt: at }

export const updateExamples: Partial<
  Record<'get' | 'create' | 'update' | 'archive' | 'restore', OperationExamples>
> = {
  get: { response: updateExample },
  create: { request: { body: updateExample.body, health: 'atRisk' }, response: updateExample },
  update: { request: { health: 'offTrack' }, response: { ...edited, health: 'offTrack' } },
  archive: { response: { ...updateExample, archivedAt: at } },
  restore: { response: updateExample },
}

export const historyExample: OperationExamples = { response: page(revisionExample) }

export const feedExample: OperationExamples = {
  response: {
    data: [
      {
        ...updateExample,
        id: id('upd', 1),
        subjectType: 'initiative',
        subjectId: id('ini'),
        body: 'Onboarding is on track.',
        health: 'onTrack',
      },
      updateExample,
    ],
    nextCursor: null,
  },
}

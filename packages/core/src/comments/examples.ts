import { exampleId as id } from '../kernel/examples.ts'
import type { CommentSubjectType } from './schemas.ts'

// Examples for the reference; test/core/openapi.test.ts checks each against its schema.
const at = '2030-01-13T16:00:00.000Z'
const PREFIX: Record<CommentSubjectType, string> = {
  task: 'task',
  project: 'proj',
  milestone: 'mile',
  update: 'upd',
  program: 'prg',
  initiative: 'ini',
  document: 'doc',
}

/** A thread's root on a subject of the kind. */
export function commentExample(type: CommentSubjectType) {
  const subjectId = id(PREFIX[type])
  return {
    id: id('cmt'),
    orgId: id('org'),
    subjectType: type,
    subjectId,
    taskId: type === 'task' ? subjectId : null,
    parentId: null,
    authorId: id('mem'),
    body: 'Can we ship the **beta** behind a flag first?',
    createdAt: at,
    updatedAt: at,
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  }
}

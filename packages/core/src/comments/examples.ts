import { exampleId as id } from '../kernel/examples.ts'
import type { OperationExamples } from '../kernel/operation.ts'
import type { CommentSubjectType, ReactionTargetType } from './schemas.ts'

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
    automation: null,
    body: 'Can we ship the **beta** behind a flag first?',
    createdAt: at,
    updatedAt: at,
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  }
}

const edited = '2030-01-13T16:20:00.000Z'
const root = commentExample('task')
const editedBody = 'Can we ship the **beta** behind a flag first? The flag would be `beta-login`.'
const reply = {
  ...root,
  id: id('cmt', 1),
  parentId: root.id,
  authorId: id('mem', 1),
  body: 'Yes: I will add `beta-login` today and turn it on for us first.',
  createdAt: edited,
  updatedAt: edited,
}

export const commentItemExamples: Record<
  'get' | 'update' | 'resolve' | 'unresolve' | 'replies' | 'history',
  OperationExamples
> = {
  get: { response: root },
  update: {
    request: { body: editedBody },
    response: { ...root, body: editedBody, updatedAt: edited, editedAt: edited },
  },
  resolve: { response: { ...root, updatedAt: edited, resolvedAt: edited, resolvedById: id('mem') } },
  unresolve: { response: { ...root, updatedAt: edited } },
  replies: { response: { data: [reply], nextCursor: null } },
  // Newest first: each body an edit replaced.
  history: {
    response: {
      data: [
        {
          id: id('crev'),
          commentId: root.id,
          body: root.body,
          createdAt: at,
          replacedAt: edited,
          editorId: id('mem'),
        },
      ],
      nextCursor: null,
    },
  },
}

const REACTION: Record<ReactionTargetType, { prefix: string; rank: number; emoji: string }> = {
  task: { prefix: 'task', rank: 0, emoji: '👀' },
  comment: { prefix: 'cmt', rank: 1, emoji: '🙏' },
  project: { prefix: 'proj', rank: 2, emoji: '🚀' },
  update: { prefix: 'upd', rank: 3, emoji: '🎉' },
}

/** The reactions to the main record of the kind: the caller's 👍 among them, and one they add. */
export function reactionExamples(type: ReactionTargetType): Record<'list' | 'add', OperationExamples> {
  const { prefix, rank, emoji } = REACTION[type]
  const targetId = id(prefix)
  const taskId = type === 'task' ? targetId : type === 'comment' ? id('task') : null
  return {
    // In the order of each emoji's first reaction; `myReactionId` is yours, to remove it.
    list: {
      response: {
        data: [
          { emoji: '👍', count: 2, actorIds: [id('mem', 1), id('mem')], myReactionId: id('rct', rank) },
          { emoji, count: 1, actorIds: [id('mem', 1)], myReactionId: null },
        ],
        nextCursor: null,
      },
    },
    add: {
      request: { emoji },
      response: {
        id: id('rct', rank + 4),
        orgId: id('org'),
        targetType: type,
        targetId,
        taskId,
        emoji,
        actorId: id('mem'),
        createdAt: edited,
      },
    },
  }
}

/**
 * A subject's comments and a new one: on a task, Grace's reply to Ada's thread (`parentId`); on
 * anything else, a new thread.
 */
export function subjectCommentExamples(
  type: CommentSubjectType,
): Record<'list' | 'create', OperationExamples> {
  const thread = commentExample(type)
  if (type !== 'task')
    return {
      list: { response: { data: [thread], nextCursor: null } },
      create: { request: { body: thread.body }, response: thread },
    }
  return {
    // Threads in order, each root followed by its replies.
    list: { response: { data: [thread, reply], nextCursor: null } },
    create: { request: { body: reply.body, parentId: thread.id }, response: reply },
  }
}

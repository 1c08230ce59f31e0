import { Type } from '@sinclair/typebox'
import type { CommentId, TaskId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { Comment, CommentBody, CommentRevision } from './schemas.ts'
import {
  createComment,
  deleteComment,
  listCommentHistory,
  listReplies,
  listTaskComments,
  requireComment,
  setThreadResolved,
  updateComment,
} from './service.ts'

const commentOperations = resourceOperations({
  name: 'comment',
  plural: 'comments',
  tag: 'Comments',
  schema: Comment,
  collectionPath: '/v1/orgs/{orgId}/tasks/{taskId}/comments',
  itemPath: '/v1/orgs/{orgId}/comments',
  idParam: 'commentId',
  idBrand: 'CommentId',
  target: (p) => ({ type: 'comment', id: p.commentId! }),
  createTarget: (p) => ({ type: 'task', id: p.taskId! }),
  // Editing or deleting someone else's comment also needs `manage` (checked by the service).
  capabilities: { create: 'comment', update: 'comment', delete: 'comment' },
  createBody: Type.Object(
    {
      body: CommentBody,
      parentId: Type.Optional(
        IdSchema('CommentId', "A comment of the same task to reply to; a reply joins its root's thread."),
      ),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object({ body: CommentBody }, { additionalProperties: false }),
  errors: { create: ['reference_not_found'], update: ['comment_deleted'] },
  handlers: {
    list: (ctx, p, query) => listTaskComments(ctx, p.taskId as TaskId, query),
    get: (ctx, p) => requireComment(ctx, p.commentId as CommentId),
    create: (ctx, p, body) =>
      createComment(ctx, p.taskId as TaskId, body as { body: string; parentId?: CommentId }),
    update: (ctx, p, body) => updateComment(ctx, p.commentId as CommentId, body),
    delete: (ctx, p) => deleteComment(ctx, p.commentId as CommentId),
  },
})

const itemPath = '/v1/orgs/{orgId}/comments/{commentId}'
const itemParams = Type.Object(paramsOf(itemPath), { additionalProperties: false })
const _pageQuery = Type.Object(PageQuery, { additionalProperties: false })

const resolution = (resolve: boolean) =>
  declareOperation({
    id: resolve ? 'comments.resolve' : 'comments.unresolve',
    method: 'POST',
    path: `${itemPath}/${resolve ? 'resolve' : 'unresolve'}`,
    tag: 'Comments',
    scope: 'work:write',
    summary: resolve ? 'Resolve a thread' : 'Reopen a resolved thread',
    description: `Only a thread's root carries its state; a reply answers 422 \`comment_not_root\` with the \`rootId\`. ${
      resolve ? 'Resolving a resolved thread' : 'Reopening an open thread'
    } changes nothing.`,
    params: itemParams,
    response: Comment,
    status: 200,
    capability: 'comment',
    target: ({ params }) => ({ type: 'comment', id: params.commentId as string }),
    errors: ['not_found', 'precondition_failed', 'comment_not_root'],
    precondition: 'comments.get',
    run: (ctx, { params }) => setThreadResolved(ctx, params.commentId as CommentId, resolve),
  })

const threadOperations: AnyOperation[] = [
  resolution(true),
  resolution(false),
  subListOperation({
    id: 'comments.replies.list',
    path: `${itemPath}/replies`,
    tag: 'Comments',
    summary: "List a thread's replies",
    description:
      'Oldest first. `commentId` is the root of the thread (a reply answers 422 `comment_not_root`).',
    item: Comment,
    itemName: 'CommentReply',
    errors: ['comment_not_root'],
    run: (ctx, params, query) => listReplies(ctx, params.commentId as CommentId, query),
  }),
  subListOperation({
    id: 'comments.history.list',
    path: `${itemPath}/history`,
    tag: 'Comments',
    summary: "List a comment's previous bodies",
    description: 'Each edit keeps the body it replaced, oldest first. Deleting the comment removes them.',
    item: CommentRevision,
    itemName: 'CommentRevision',
    run: (ctx, params, query) => listCommentHistory(ctx, params.commentId as CommentId, query),
  }),
]

export const commentsCatalogue: AnyOperation[] = [...commentOperations, ...threadOperations]

import { Type } from '@sinclair/typebox'
import { withArticle } from '../kernel/article.ts'
import type { CommentId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { commentItemExamples, subjectCommentExamples } from './examples.ts'
import {
  COMMENT_SUBJECT_TYPES,
  Comment,
  CommentBody,
  CommentRevision,
  type CommentSubjectType,
} from './schemas.ts'
import {
  createComment,
  deleteComment,
  listCommentHistory,
  listComments,
  listReplies,
  requireComment,
  setThreadResolved,
  updateComment,
} from './service.ts'
import { COMMENT_SUBJECTS } from './subjects.ts'

// The item operations serve comments on every kind of subject; each subject adds only its list and create.
const commentOperations = resourceOperations({
  name: 'comment',
  plural: 'comments',
  tag: 'Comments',
  schema: Comment,
  collectionPath: '/v1/orgs/{orgId}/comments',
  idParam: 'commentId',
  idBrand: 'CommentId',
  target: (p) => ({ type: 'comment', id: p.commentId! }),
  // Editing or deleting someone else's comment also needs `manage` (checked by the service).
  capabilities: { update: 'comment', delete: 'comment' },
  requires: {
    update: "`comment` on the comment's subject for your own comment, `manage` for someone else's",
    delete: "`comment` on the comment's subject for your own comment, `manage` for someone else's",
  },
  updateBody: Type.Object({ body: CommentBody }, { $id: 'CommentUpdate', additionalProperties: false }),
  errors: { update: ['comment_deleted'] },
  descriptions: {
    get: 'A comment on a task, project, milestone, status update, program, initiative or document; one whose subject the caller cannot view is a 404.',
    update: "Your own comment needs `comment` on its subject; someone else's needs `manage`.",
    delete:
      "Soft deletion: the body and its history go, the comment stays as a placeholder so its thread reads on. Someone else's comment needs `manage` on the subject.",
  },
  examples: commentItemExamples,
  handlers: {
    get: (ctx, p) => requireComment(ctx, p.commentId as CommentId),
    update: (ctx, p, body) => updateComment(ctx, p.commentId as CommentId, body),
    delete: (ctx, p) => deleteComment(ctx, p.commentId as CommentId),
  },
})

const CreateCommentBody = Type.Object(
  {
    body: CommentBody,
    parentId: Type.Optional(
      IdSchema('CommentId', "A comment on the same subject to reply to; a reply joins its root's thread."),
    ),
  },
  // One body for every subject's `…comments.create`.
  { $id: 'CommentCreate', additionalProperties: false },
)

/** `…comments.list` and `…comments.create` of one kind of subject: view to read, `comment` to post. */
function subjectCommentOperations(type: CommentSubjectType): AnyOperation[] {
  const s = COMMENT_SUBJECTS[type]
  const collection = `/v1/orgs/{orgId}/${s.path}/{${s.param}}/comments`
  const params = Type.Object(paramsOf(collection), { additionalProperties: false })
  const subjectOf = (p: Record<string, string>) => p[s.param]!
  return [
    declareOperation({
      id: `${s.operations}.list`,
      method: 'GET',
      path: collection,
      tag: 'Comments',
      scope: 'work:read',
      summary: `List ${withArticle(s.name)}'s comments`,
      description: `Threads in order, each root followed by its replies. When the caller cannot view the ${s.name}: 404.`,
      params,
      query: Type.Object(PageQuery, { additionalProperties: false }),
      response: CommentPage,
      status: 200,
      errors: ['not_found', 'invalid_cursor'],
      examples: subjectCommentExamples(type).list,
      run: (ctx, { params, query }) => listComments(ctx, type, subjectOf(params), query),
    }),
    declareOperation({
      id: `${s.operations}.create`,
      method: 'POST',
      path: collection,
      tag: 'Comments',
      scope: 'work:write',
      summary: `Comment on ${withArticle(s.name)}`,
      description:
        `Posts a Markdown comment on the ${s.name}: a new thread, or with \`parentId\` a reply (a reply to a reply joins its root's thread). ` +
        `A \`parentId\` that is not a comment on this ${s.name} is a 422 \`reference_not_found\`; when the caller cannot view the ${s.name}: 404. ` +
        (type === 'task'
          ? "The task's subscribers are notified (`commented`), and the people it @mentions (a member's handle is their name in lower case without spaces: `@adalovelace`) are notified (`mentioned`). "
          : '') +
        'Emits `comment.created`.',
      params,
      body: CreateCommentBody,
      response: Comment,
      status: 201,
      capability: 'comment',
      target: ({ params }) => ({ type, id: subjectOf(params) }),
      errors: ['not_found', 'reference_not_found'],
      location: 'comments.get',
      examples: subjectCommentExamples(type).create,
      run: (ctx, { params, body }) =>
        createComment(ctx, type, subjectOf(params), body as { body: string; parentId?: CommentId }),
    }),
  ]
}

const itemPath = '/v1/orgs/{orgId}/comments/{commentId}'
const itemParams = Type.Object(paramsOf(itemPath), { additionalProperties: false })
const CommentPage = PageOf(Comment, 'Comment')

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
    examples: commentItemExamples[resolve ? 'resolve' : 'unresolve'],
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
    examples: commentItemExamples.replies,
    run: (ctx, params, query) => listReplies(ctx, params.commentId as CommentId, query),
  }),
  subListOperation({
    id: 'comments.history.list',
    path: `${itemPath}/history`,
    tag: 'Comments',
    summary: "List a comment's previous bodies",
    description:
      'Each edit keeps the body it replaced; listed newest first (the body the last edit replaced comes first). Deleting the comment removes them.',
    item: CommentRevision,
    itemName: 'CommentRevision',
    examples: commentItemExamples.history,
    run: (ctx, params, query) => listCommentHistory(ctx, params.commentId as CommentId, query),
  }),
]

export const commentsCatalogue: AnyOperation[] = [
  ...COMMENT_SUBJECT_TYPES.flatMap(subjectCommentOperations),
  ...commentOperations,
  ...threadOperations,
]

import { type CommentId, newId, type TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { changesOf, currentOrg } from '../orgs/service.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { Task } from '../tasks/schemas.ts'
import type { Comment, CommentRevision } from './schemas.ts'
import type { CommentRecord } from './storage.ts'

type PageQuery = { cursor?: string; limit?: number }

export async function requireComment(ctx: OperationContext, commentId: CommentId): Promise<Comment> {
  const comment = await ctx.store.comments.get(currentOrg(ctx).id, commentId, await ctx.scope())
  if (!comment) throw notFound('Comment')
  return comment
}

/** Posts a comment on a task, or a reply: a reply to a reply joins the thread of its root. */
export async function createComment(
  ctx: OperationContext,
  taskId: TaskId,
  input: { body: string; parentId?: CommentId },
): Promise<Comment> {
  const task = await requireTask(ctx, taskId)
  let threadId: CommentId | null = null
  if (input.parentId) {
    const parent = await ctx.store.comments.get(task.orgId, input.parentId, await ctx.scope())
    if (!parent || parent.taskId !== task.id) {
      throw new ProblemError('reference_not_found', 'The parent is not a comment on this task.', {
        errors: [{ pointer: '/body/parentId', message: 'Not a comment on this task' }],
      })
    }
    threadId = parent.parentId ?? parent.id
  }
  const id = newId('CommentId')
  const record: CommentRecord = {
    id,
    orgId: task.orgId,
    taskId: task.id,
    threadId: threadId ?? id,
    authorId: ctx.actor!.id,
    body: input.body,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  }
  await ctx.store.comments.insert(record)
  const comment = await requireComment(ctx, id)
  emitComment(ctx, 'comment.created', comment, task)
  return comment
}

/** Edits the body; the previous body is kept in the comment's history. */
export async function updateComment(
  ctx: OperationContext,
  commentId: CommentId,
  input: { body: string },
): Promise<Comment> {
  const comment = await requireComment(ctx, commentId)
  await requireAuthorOrManager(ctx, comment)
  if (comment.deletedAt) throw deleted()
  if (comment.body === input.body) return comment
  const revision: CommentRevision = {
    id: newId('CommentRevisionId'),
    commentId: comment.id,
    body: comment.body ?? '',
    createdAt: comment.editedAt ?? comment.createdAt,
    replacedAt: ctx.now,
    editorId: ctx.actor!.id,
  }
  await ctx.store.comments.insertRevision(comment.orgId, revision)
  return change(ctx, comment, { body: input.body, editedAt: ctx.now }, 'comment.updated')
}

/** Soft delete: the body and its history go, the comment stays as a placeholder so its thread reads on. */
export async function deleteComment(ctx: OperationContext, commentId: CommentId): Promise<void> {
  const comment = await requireComment(ctx, commentId)
  await requireAuthorOrManager(ctx, comment)
  if (comment.deletedAt) return
  await ctx.store.comments.deleteRevisions(comment.orgId, comment.id)
  await change(ctx, comment, { body: null, deletedAt: ctx.now }, 'comment.deleted')
}

/** Resolves or reopens a thread; only its root carries the state. */
export async function setThreadResolved(
  ctx: OperationContext,
  commentId: CommentId,
  resolved: boolean,
): Promise<Comment> {
  const comment = await requireComment(ctx, commentId)
  if (comment.parentId) throw notRoot(comment)
  if (Boolean(comment.resolvedAt) === resolved) return comment
  return change(
    ctx,
    comment,
    resolved
      ? { resolvedAt: ctx.now, resolvedById: ctx.actor!.id }
      : { resolvedAt: null, resolvedById: null },
    resolved ? 'comment.resolved' : 'comment.unresolved',
  )
}

export async function listTaskComments(
  ctx: OperationContext,
  taskId: TaskId,
  query: PageQuery,
): Promise<Page<Comment>> {
  const task = await requireTask(ctx, taskId)
  return readPage(ctx, {
    scope: ['comments.list', task.orgId, task.id],
    query,
    sort: 'thread',
    direction: 'asc',
    keyOf: (c: Comment) => c.parentId ?? c.id,
    fetch: async (page) => ctx.store.comments.list(task.orgId, { taskId: task.id }, page, await ctx.scope()),
  })
}

export async function listReplies(
  ctx: OperationContext,
  commentId: CommentId,
  query: PageQuery,
): Promise<Page<Comment>> {
  const root = await requireComment(ctx, commentId)
  if (root.parentId) throw notRoot(root)
  return readPage(ctx, {
    scope: ['comments.replies', root.orgId, root.id],
    query,
    sort: 'thread',
    direction: 'asc',
    keyOf: (c: Comment) => c.parentId ?? c.id,
    fetch: async (page) =>
      ctx.store.comments.list(root.orgId, { threadId: root.id, repliesOnly: true }, page, await ctx.scope()),
  })
}

export async function listCommentHistory(
  ctx: OperationContext,
  commentId: CommentId,
  query: PageQuery,
): Promise<Page<CommentRevision>> {
  const comment = await requireComment(ctx, commentId)
  return readPage(ctx, {
    scope: ['comments.history', comment.orgId, comment.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (r: CommentRevision) => r.id,
    fetch: (page) => ctx.store.comments.listRevisions(comment.orgId, comment.id, page),
  })
}

/** Your own comment needs `comment` (checked by the engine); someone else's needs `manage`. */
async function requireAuthorOrManager(ctx: OperationContext, comment: Comment): Promise<void> {
  if (comment.authorId !== ctx.actor!.id) await ctx.require('manage', { type: 'task', id: comment.taskId })
}

async function change(
  ctx: OperationContext,
  comment: Comment,
  patch: Partial<Comment>,
  kind: string,
): Promise<Comment> {
  await ctx.store.comments.update(comment.orgId, comment.id, { ...patch, updatedAt: ctx.now })
  const next = { ...comment, ...patch, updatedAt: ctx.now }
  const task = await requireTask(ctx, comment.taskId)
  // A deletion's event carries no body, and its `changes` do not repeat the removed one.
  const changes = kind === 'comment.deleted' ? undefined : changesOf(comment, patch)
  emitComment(ctx, kind, next, task, changes)
  return next
}

function emitComment(
  ctx: OperationContext,
  kind: string,
  comment: Comment,
  task: Task,
  changes?: Record<string, unknown>,
): void {
  ctx.emit({
    kind,
    resourceType: 'comment',
    resourceId: comment.id,
    teamId: task.teamId,
    data: { comment, taskId: task.id, ...(changes ? { changes } : {}) },
  })
}

function deleted(): ProblemError {
  return new ProblemError('comment_deleted', 'The comment is deleted and can no longer change.')
}

function notRoot(comment: Comment): ProblemError {
  return new ProblemError(
    'comment_not_root',
    `This comment is a reply; its thread's root is ${comment.parentId}.`,
    { extensions: { rootId: comment.parentId } },
  )
}

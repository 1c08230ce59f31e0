import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type ActorId, type CommentId, newId, type OrgId, type TaskId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { automationOf } from '../tasks/history/history.ts'
import type { Comment, CommentRevision, CommentSubjectType } from './schemas.ts'
import type { CommentRecord } from './storage.ts'
import { COMMENT_SUBJECTS, type SubjectView } from './subjects.ts'

type PageQuery = { cursor?: string; limit?: number }

/** The comment, if the caller may view its subject; otherwise 404, like a missing one. */
export async function requireComment(ctx: OperationContext, commentId: CommentId): Promise<Comment> {
  return (await commentAndSubject(ctx, commentId)).comment
}

async function commentAndSubject(
  ctx: OperationContext,
  commentId: CommentId,
): Promise<{ comment: Comment; subject: SubjectView }> {
  const comment = await ctx.store.comments.get(currentOrg(ctx).id, commentId)
  if (!comment) throw notFound('Comment')
  try {
    return { comment, subject: await COMMENT_SUBJECTS[comment.subjectType].require(ctx, comment.subjectId) }
  } catch (e) {
    if (e instanceof ProblemError && e.code === 'not_found') throw notFound('Comment')
    throw e
  }
}

/**
 * Posts a comment on a subject, or a reply: a reply to a reply joins the thread of its root.
 * `origin` is for imports only: the comment keeps the author and time it had in the other tool.
 */
export async function createComment(
  ctx: OperationContext,
  subjectType: CommentSubjectType,
  subjectId: string,
  input: { body: string; parentId?: CommentId },
  origin?: { authorId: ActorId; createdAt: string },
): Promise<Comment> {
  const kind = COMMENT_SUBJECTS[subjectType]
  const subject = await kind.require(ctx, subjectId)
  const orgId = currentOrg(ctx).id
  let threadId: CommentId | null = null
  if (input.parentId) {
    const parent = await ctx.store.comments.get(orgId, input.parentId)
    if (!parent || parent.subjectType !== subjectType || parent.subjectId !== subject.id) {
      throw referenceNotFound(
        '/body/parentId',
        `The parent is not a comment on this ${kind.name}.`,
        `Not a comment on this ${kind.name}`,
      )
    }
    threadId = parent.parentId ?? parent.id
  }
  const id = newId('CommentId')
  const record: CommentRecord = {
    id,
    orgId,
    subjectType,
    subjectId: subject.id,
    taskId: subject.taskId,
    threadId: threadId ?? id,
    authorId: origin?.authorId ?? ctx.actor!.id,
    automation: automationOf(ctx),
    body: input.body,
    createdAt: origin?.createdAt ?? ctx.now,
    updatedAt: origin?.createdAt ?? ctx.now,
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  }
  await ctx.store.comments.insert(record)
  const comment = (await ctx.store.comments.get(orgId, id))!
  emitComment(ctx, 'comment.created', comment, subject)
  return comment
}

/**
 * A comment the system writes on a task, saying why it changed it (a team's auto-close): no author
 * (`authorId` null) and what acted in `automation`, as the task's history names it. Nobody's rights
 * are checked: the caller is the engine's own pass, inside its transaction.
 */
export async function postSystemComment(
  ctx: OperationContext,
  task: { id: TaskId; orgId: OrgId; teamId: TeamId },
  body: string,
): Promise<Comment> {
  const id = newId('CommentId')
  await ctx.store.comments.insert({
    id,
    orgId: task.orgId,
    subjectType: 'task',
    subjectId: task.id,
    taskId: task.id,
    threadId: id,
    authorId: null,
    automation: automationOf(ctx),
    body,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  })
  const comment = (await ctx.store.comments.get(task.orgId, id))!
  emitComment(
    ctx,
    'comment.created',
    comment,
    { id: task.id, teamId: task.teamId, taskId: task.id },
    undefined,
    task.orgId,
  )
  return comment
}

/** Edits the body; the previous body is kept in the comment's history. */
export async function updateComment(
  ctx: OperationContext,
  commentId: CommentId,
  input: { body: string },
): Promise<Comment> {
  const { comment, subject } = await commentAndSubject(ctx, commentId)
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
  return change(ctx, comment, subject, { body: input.body, editedAt: ctx.now }, 'comment.updated')
}

/** Soft delete: the body and its history go, the comment stays as a placeholder so its thread reads on. */
export async function deleteComment(ctx: OperationContext, commentId: CommentId): Promise<void> {
  const { comment, subject } = await commentAndSubject(ctx, commentId)
  await requireAuthorOrManager(ctx, comment)
  if (comment.deletedAt) return
  await ctx.store.comments.deleteRevisions(comment.orgId, comment.id)
  await change(ctx, comment, subject, { body: null, deletedAt: ctx.now }, 'comment.deleted')
}

/** Resolves or reopens a thread; only its root carries the state. */
export async function setThreadResolved(
  ctx: OperationContext,
  commentId: CommentId,
  resolved: boolean,
): Promise<Comment> {
  const { comment, subject } = await commentAndSubject(ctx, commentId)
  if (comment.parentId) throw notRoot(comment)
  if (Boolean(comment.resolvedAt) === resolved) return comment
  return change(
    ctx,
    comment,
    subject,
    resolved
      ? { resolvedAt: ctx.now, resolvedById: ctx.actor!.id }
      : { resolvedAt: null, resolvedById: null },
    resolved ? 'comment.resolved' : 'comment.unresolved',
  )
}

/** A subject's threads, each root followed by its replies; a subject the caller cannot view is a 404. */
export async function listComments(
  ctx: OperationContext,
  subjectType: CommentSubjectType,
  subjectId: string,
  query: PageQuery,
): Promise<Page<Comment>> {
  const subject = await COMMENT_SUBJECTS[subjectType].require(ctx, subjectId)
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['comments.list', orgId, subjectType, subject.id],
    query,
    sort: 'thread',
    direction: 'asc',
    keyOf: (c: Comment) => c.parentId ?? c.id,
    fetch: (page) => ctx.store.comments.list(orgId, { subjectType, subjectId: subject.id }, page),
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
    fetch: (page) => ctx.store.comments.list(root.orgId, { threadId: root.id, repliesOnly: true }, page),
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
    direction: 'desc',
    keyOf: (r: CommentRevision) => r.id,
    fetch: (page) => ctx.store.comments.listRevisions(comment.orgId, comment.id, page),
  })
}

/** Your own comment needs `comment` (checked by the engine); someone else's needs `manage` on its subject. */
async function requireAuthorOrManager(ctx: OperationContext, comment: Comment): Promise<void> {
  if (comment.authorId !== ctx.actor!.id)
    await ctx.require('manage', { type: comment.subjectType, id: comment.subjectId })
}

async function change(
  ctx: OperationContext,
  comment: Comment,
  subject: SubjectView,
  patch: Partial<Comment>,
  kind: string,
): Promise<Comment> {
  await ctx.store.comments.update(comment.orgId, comment.id, { ...patch, updatedAt: ctx.now })
  const next = { ...comment, ...patch, updatedAt: ctx.now }
  // A deletion's event carries no body, and its `changes` do not repeat the removed one.
  const changes = kind === 'comment.deleted' ? undefined : changesOf(comment, patch)
  emitComment(ctx, kind, next, subject, changes)
  return next
}

/** Filed under the subject's team (a project's first team); `taskId` lets task watchers follow it. */
function emitComment(
  ctx: OperationContext,
  kind: string,
  comment: Comment,
  subject: SubjectView,
  changes?: Record<string, unknown>,
  orgId?: OrgId,
): void {
  ctx.emit(
    {
      kind,
      resourceType: 'comment',
      resourceId: comment.id,
      teamId: subject.teamId,
      data: {
        comment,
        subjectType: comment.subjectType,
        subjectId: comment.subjectId,
        ...(subject.taskId ? { taskId: subject.taskId } : {}),
        ...(changes ? { changes } : {}),
      },
    },
    orgId,
  )
}

function deleted(): ProblemError {
  return new ProblemError('comment_deleted', 'The comment is deleted and can no longer change.')
}

function notRoot(comment: Comment): ProblemError {
  return new ProblemError(
    'comment_not_root',
    `This comment is a reply; its thread's root is ${comment.parentId}.`,
    { extensions: comment.parentId ? { rootId: comment.parentId } : {} },
  )
}

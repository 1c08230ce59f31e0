/** The comments of the bulk: the owner's comment on one task in ten, and its event. */
import { newId } from '@workgraph/core'
import { type Bulk, type BulkContext, iso, RARE_WORD, WORDS } from './shared.ts'

/** The owner's comment on task `n` (`taskId`), half a minute after its creation. */
export function addComment(bulk: Bulk, ctx: BulkContext, n: number, taskId: string): void {
  const { orgId, teamId, ownerMemberId, start } = ctx
  const at = start + n * 60_000 + 30_000
  const commentId = newId('CommentId')
  const body = `Thinking about ${WORDS[(n * 5 + 2) % WORDS.length]} and ${WORDS[(n * 9 + 4) % WORDS.length]} for task ${n}${n % 310 === 3 ? ` ${RARE_WORD}` : ''}`
  const comment = {
    orgId,
    id: commentId,
    subjectType: 'task',
    subjectId: taskId,
    taskId,
    threadId: commentId,
    authorId: ownerMemberId,
    automation: null,
    body,
    createdAt: iso(at),
    updatedAt: iso(at),
    editedAt: null,
    deletedAt: null,
    resolvedAt: null,
    resolvedById: null,
  }
  bulk.comments.push(comment)
  bulk.seedComments.push({ orgId, id: commentId, body })
  const { threadId: _t, ...rest } = comment
  bulk.events.push({
    at,
    event: {
      id: newId('EventId'),
      kind: 'comment.created',
      actorId: ownerMemberId,
      resourceType: 'comment',
      resourceId: commentId,
      teamId,
      data: { comment: { ...rest, parentId: null }, subjectType: 'task', subjectId: taskId, taskId },
      createdAt: iso(at),
    },
  })
}

import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The comments tables, as queries see them. */
export interface CommentsTables {
  comments: {
    orgId: string
    id: string
    taskId: string
    threadId: string
    authorId: string
    body: string | null
    createdAt: Timestamp
    updatedAt: Timestamp
    editedAt: NullableTimestamp
    deletedAt: NullableTimestamp
    resolvedAt: NullableTimestamp
    resolvedById: string | null
  }
  commentRevisions: {
    orgId: string
    id: string
    commentId: string
    body: string
    editorId: string
    createdAt: Timestamp
    replacedAt: Timestamp
  }
  reactions: {
    orgId: string
    id: string
    targetType: string
    targetId: string
    taskId: string
    emoji: string
    actorId: string
    createdAt: Timestamp
  }
}

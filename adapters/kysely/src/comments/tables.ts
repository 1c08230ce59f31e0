import type { NullableTimestamp, Timestamp } from '../columns.ts'

/** The comments tables, as queries see them. */
export interface CommentsTables {
  comments: {
    orgId: string
    id: string
    /** Added by 0016_comment_subjects; `taskId` is null unless the subject is a task. */
    subjectType: string
    subjectId: string
    taskId: string | null
    threadId: string
    /** Null for the system's comments (0071). */
    authorId: string | null
    /** What wrote it on the engine's behalf (0071). */
    automation: string | null
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
    taskId: string | null
    emoji: string
    actorId: string
    createdAt: Timestamp
  }
}

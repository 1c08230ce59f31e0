import type { ActorId, CommentId, OrgId, ReactionId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Comment, CommentRevision, CommentSubjectType, Reaction, ReactionTargetType } from './schemas.ts'

/** What is stored of a comment: its thread's root (itself for a root) instead of `parentId`. */
export type CommentRecord = Omit<Comment, 'parentId'> & { threadId: CommentId }

export interface CommentRepo {
  insert(comment: CommentRecord): Promise<void>
  /**
   * The comment whatever its subject; the service answers 404 unless the caller may view the
   * subject (a subject-scoped read, in SQL).
   */
  get(orgId: OrgId, id: CommentId): Promise<Comment | null>
  /**
   * A subject's comments, threads in order: each root followed by its replies (the sort key is the
   * thread's root id), or with `threadId` only that thread's replies. The service has checked that
   * the caller may view the subject, so every row of the page is visible.
   */
  list(
    orgId: OrgId,
    filter:
      | { subjectType: CommentSubjectType; subjectId: string }
      | { threadId: CommentId; repliesOnly: true },
    page: PageRequest<'thread'>,
  ): Promise<Comment[]>
  update(
    orgId: OrgId,
    id: CommentId,
    patch: Partial<
      Pick<Comment, 'body' | 'updatedAt' | 'editedAt' | 'deletedAt' | 'resolvedAt' | 'resolvedById'>
    >,
  ): Promise<void>
  insertRevision(orgId: OrgId, revision: CommentRevision): Promise<void>
  /** Oldest first. */
  listRevisions(orgId: OrgId, commentId: CommentId, page: PageRequest<'id'>): Promise<CommentRevision[]>
  /** Removes every kept body of a deleted comment. */
  deleteRevisions(orgId: OrgId, commentId: CommentId): Promise<void>
}

export interface ReactionTarget {
  type: ReactionTargetType
  id: string
}

/** Reactions to one target, grouped by emoji, the groups in the order of their first reaction. */
export interface ReactionGroupRow {
  emoji: string
  /** The id of the group's first reaction: its position in the list. */
  id: ReactionId
  reactions: Array<{ id: ReactionId; actorId: ActorId }>
}

export interface ReactionRepo {
  /** Returns false, writing nothing, when the actor already reacted to the target with the emoji. */
  insert(reaction: Reaction): Promise<boolean>
  get(orgId: OrgId, id: ReactionId): Promise<Reaction | null>
  delete(orgId: OrgId, id: ReactionId): Promise<void>
  /** One page of emoji groups (by first reaction), each with every reaction in it. */
  listGroups(orgId: OrgId, target: ReactionTarget, page: PageRequest<'id'>): Promise<ReactionGroupRow[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    comments: CommentRepo
    reactions: ReactionRepo
  }
}

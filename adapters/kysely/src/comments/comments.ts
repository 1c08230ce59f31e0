import type {
  ActorId,
  Comment,
  CommentId,
  CommentRevision,
  CommentRevisionId,
  OrgId,
  TaskId,
} from '@workgraph/core'
import type { CommentRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Row = { [K in keyof Database['comments']]: unknown }

function toComment(r: Row): Comment {
  return {
    id: r.id as CommentId,
    orgId: r.orgId as OrgId,
    taskId: r.taskId as TaskId,
    parentId: r.threadId === r.id ? null : (r.threadId as CommentId),
    authorId: r.authorId as ActorId,
    body: r.body as string | null,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    editedAt: isoOrNull(r.editedAt as string | null),
    deletedAt: isoOrNull(r.deletedAt as string | null),
    resolvedAt: isoOrNull(r.resolvedAt as string | null),
    resolvedById: r.resolvedById as ActorId | null,
  }
}

function toRevision(r: { [K in keyof Database['commentRevisions']]: unknown }): CommentRevision {
  return {
    id: r.id as CommentRevisionId,
    commentId: r.commentId as CommentId,
    body: r.body as string,
    createdAt: iso(r.createdAt as string),
    replacedAt: iso(r.replacedAt as string),
    editorId: r.editorId as ActorId,
  }
}

export function commentRepo(db: Kysely<Database>): CommentRepo {
  // A comment is as visible as its task; a deleted task takes its comments with it.
  const base = (orgId: OrgId, scope: Parameters<CommentRepo['get']>[2]) => {
    let q = db
      .selectFrom('comments')
      .innerJoin('tasks', (j) =>
        j.onRef('tasks.orgId', '=', 'comments.orgId').onRef('tasks.id', '=', 'comments.taskId'),
      )
      .selectAll('comments')
      .where('comments.orgId', '=', orgId)
      .where('tasks.deletedAt', 'is', null)
    if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'tasks.teamId', scope))
    return q
  }
  return {
    async insert(comment) {
      await db.insertInto('comments').values(comment).execute()
    },
    async get(orgId, id, scope) {
      const row = await base(orgId, scope).where('comments.id', '=', id).executeTakeFirst()
      return row ? toComment(row) : null
    },
    async list(orgId, filter, page, scope) {
      let q = base(orgId, scope)
      if ('taskId' in filter) q = q.where('comments.taskId', '=', filter.taskId)
      else q = q.where('comments.threadId', '=', filter.threadId).where('comments.id', '!=', filter.threadId)
      const rows = await keysetPage(q, page, { sort: 'comments.threadId', id: 'comments.id' }).execute()
      return rows.map(toComment)
    },
    async update(orgId, id, patch) {
      await db.updateTable('comments').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async insertRevision(orgId, revision) {
      await db
        .insertInto('commentRevisions')
        .values({ ...revision, orgId })
        .execute()
    },
    async listRevisions(orgId, commentId, page) {
      const q = db
        .selectFrom('commentRevisions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('commentId', '=', commentId)
      const rows = await keysetPage(q, page, { sort: 'id', id: 'id' }).execute()
      return rows.map(toRevision)
    },
    async deleteRevisions(orgId, commentId) {
      await db
        .deleteFrom('commentRevisions')
        .where('orgId', '=', orgId)
        .where('commentId', '=', commentId)
        .execute()
    },
  }
}

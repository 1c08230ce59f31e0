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

type Row = { [K in keyof Database['comments']]: unknown }

function toComment(r: Row): Comment {
  return {
    id: r.id as CommentId,
    orgId: r.orgId as OrgId,
    subjectType: r.subjectType as Comment['subjectType'],
    subjectId: r.subjectId as string,
    taskId: r.taskId as TaskId | null,
    parentId: r.threadId === r.id ? null : (r.threadId as CommentId),
    authorId: r.authorId as ActorId | null,
    automation: r.automation as Comment['automation'],
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
  // Visibility is the subject's: the service reads the subject through the caller's scope first.
  const base = (orgId: OrgId) => db.selectFrom('comments').selectAll().where('orgId', '=', orgId)
  return {
    async insert(comment) {
      await db.insertInto('comments').values(comment).execute()
    },
    async get(orgId, id) {
      const row = await base(orgId).where('id', '=', id).executeTakeFirst()
      return row ? toComment(row) : null
    },
    async list(orgId, filter, page) {
      let q = base(orgId)
      if ('subjectType' in filter)
        q = q.where('subjectType', '=', filter.subjectType).where('subjectId', '=', filter.subjectId)
      else q = q.where('threadId', '=', filter.threadId).where('id', '!=', filter.threadId)
      const rows = await keysetPage(q, page, { sort: 'threadId', id: 'id' }).execute()
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

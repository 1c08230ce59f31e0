import type { ActorId, TaskId, TaskLink, TaskLinkId } from '@workgraph/core'
import type { TaskLinkRepo } from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso } from '../normalize.ts'
import type { Database } from '../schema.ts'

export function taskLinkRepo(db: Kysely<Database>): TaskLinkRepo {
  const toLink = (r: Selectable<Database['taskLinks']>): TaskLink => ({
    id: r.id as TaskLinkId,
    taskId: r.taskId as TaskId,
    url: r.url,
    title: r.title,
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  })
  return {
    async insert(link) {
      await db.insertInto('taskLinks').values(link).execute()
    },
    async get(orgId, taskId, id) {
      const row = await db
        .selectFrom('taskLinks')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toLink(row) : null
    },
    async list(orgId, taskId, page) {
      const q = db.selectFrom('taskLinks').selectAll().where('orgId', '=', orgId).where('taskId', '=', taskId)
      return (await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()).map(toLink)
    },
    async update(orgId, id, patch) {
      await db.updateTable('taskLinks').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('taskLinks').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
  }
}

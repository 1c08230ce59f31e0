import type { LinkedItem, LinkedItemId, MemberId, OrgId, ProjectId, TaskId } from '@workgraph/core'
import type { LinkedItemHolder, LinkedItemRepo } from '@workgraph/core/storage'
import { type Kysely, type SqlBool, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleProjectRef, visibleTask } from '../scope.ts'

type Row = { [K in keyof Database['linkedItems']]: unknown }

function toItem(r: Row): LinkedItem {
  return {
    id: r.id as LinkedItemId,
    orgId: r.orgId as OrgId,
    taskId: r.taskId as TaskId | null,
    projectId: r.projectId as ProjectId | null,
    url: r.url as string,
    providerId: r.providerId as string | null,
    itemType: r.itemType as string | null,
    title: r.title as string | null,
    state: r.state as string | null,
    assignee: r.assignee as string | null,
    externalUpdatedAt: isoOrNull(r.externalUpdatedAt as string | null),
    fetchedAt: isoOrNull(r.fetchedAt as string | null),
    creatorId: r.creatorId as MemberId,
    createdAt: iso(r.createdAt as string),
  }
}

export function linkedItemRepo(db: Kysely<Database>): LinkedItemRepo {
  const ofHolder = (orgId: OrgId, holder: LinkedItemHolder) =>
    db
      .selectFrom('linkedItems')
      .selectAll()
      .where('orgId', '=', orgId)
      .where(holder.type === 'task' ? 'taskId' : 'projectId', '=', holder.id)
  return {
    async insert(item) {
      await db.insertInto('linkedItems').values(item).execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('linkedItems')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toItem(row) : null
    },
    async findByUrl(orgId, holder, url) {
      const row = await ofHolder(orgId, holder).where('url', '=', url).executeTakeFirst()
      return row ? toItem(row) : null
    },
    async list(orgId, holder, page) {
      return (await keysetPage(ofHolder(orgId, holder), page, { sort: 'id', id: 'id' }).execute()).map(toItem)
    },
    async update(orgId, id, patch) {
      await db.updateTable('linkedItems').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('linkedItems').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async lookup(orgId, url, scope, page) {
      const q = db
        .selectFrom('linkedItems as li')
        .selectAll('li')
        .where('li.orgId', '=', orgId)
        .where('li.url', '=', url)
        .where((eb) =>
          eb.or([
            eb.exists(
              eb
                .selectFrom('tasks')
                .select('tasks.id')
                .whereRef('tasks.orgId', '=', 'li.orgId')
                .whereRef('tasks.id', '=', 'li.taskId')
                .where('tasks.deletedAt', 'is', null)
                .where((t) => (scope.orgWide ? sql<SqlBool>`1 = 1` : visibleTask(t, 'tasks', scope))),
            ),
            eb.and([
              eb('li.projectId', 'is not', null),
              scope.orgWide ? sql<SqlBool>`1 = 1` : visibleProjectRef(eb, 'li.projectId', 'li.orgId', scope),
            ]),
          ]),
        )
      return (await keysetPage(q, page, { sort: 'li.id', id: 'li.id' }).execute()).map(toItem)
    },
  }
}

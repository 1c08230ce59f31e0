import type { StatusUpdate, UpdateRevision } from '@workgraph/core'
import type { UpdateRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { visibleInitiativeRef, visibleProgramRef, visibleProjectRef } from '../scope.ts'

type Row = { [K in keyof Database['statusUpdates']]: unknown }
type RevisionRow = { [K in keyof Database['statusUpdateRevisions']]: unknown }

function toUpdate(r: Row): StatusUpdate {
  return {
    id: r.id as StatusUpdate['id'],
    orgId: r.orgId as StatusUpdate['orgId'],
    subjectType: r.subjectType as StatusUpdate['subjectType'],
    subjectId: r.subjectId as string,
    body: r.body as string,
    health: r.health as StatusUpdate['health'],
    authorId: r.authorId as string,
    progress:
      r.progressTasks === null
        ? null
        : {
            tasks: Number(r.progressTasks),
            completedTasks: Number(r.progressCompletedTasks),
            completedRatio: Number(r.progressCompletedRatio),
          },
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    editedAt: isoOrNull(r.editedAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

function toRevision(r: RevisionRow): UpdateRevision {
  return {
    id: r.id as UpdateRevision['id'],
    updateId: r.updateId as UpdateRevision['updateId'],
    body: r.body as string,
    health: r.health as UpdateRevision['health'],
    editorId: r.editorId as string,
    replacedAt: iso(r.replacedAt as string),
  }
}

export function updateRepo(db: Kysely<Database>, purge: Purge): UpdateRepo {
  return {
    async insert({ progress, ...update }) {
      await db
        .insertInto('statusUpdates')
        .values({
          ...update,
          progressTasks: progress?.tasks ?? null,
          progressCompletedTasks: progress?.completedTasks ?? null,
          progressCompletedRatio: progress?.completedRatio ?? null,
        })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('statusUpdates')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toUpdate(row) : null
    },
    async list(orgId, subjectType, subjectId, filter, page) {
      let q = db
        .selectFrom('statusUpdates')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('subjectType', '=', subjectType)
        .where('subjectId', '=', subjectId)
      if (filter.health) q = q.where('health', '=', filter.health)
      if (filter.archived === true) q = q.where('archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('archivedAt', 'is', null)
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toUpdate)
    },
    async feed(orgId, filter, page, scope) {
      let q = db.selectFrom('statusUpdates').selectAll().where('orgId', '=', orgId)
      const archived = filter.archived ?? 'exclude'
      if (archived === 'exclude') q = q.where('archivedAt', 'is', null)
      if (archived === 'only') q = q.where('archivedAt', 'is not', null)
      if (filter.subjectType) q = q.where('subjectType', '=', filter.subjectType)
      if (filter.subjectId) q = q.where('subjectId', '=', filter.subjectId)
      if (filter.subjectIds) {
        if (filter.subjectIds.length === 0) return []
        q = q.where('subjectId', 'in', [...filter.subjectIds])
      }
      if (filter.health) q = q.where('health', '=', filter.health)
      if (filter.authorId) q = q.where('authorId', '=', filter.authorId)
      if (filter.since) q = q.where('createdAt', '>=', filter.since)
      if (filter.until) q = q.where('createdAt', '<', filter.until)
      // Each kind of subject with its own visibility predicate; a kind not listed here is never shown.
      if (!scope.orgWide) {
        q = q.where((eb) =>
          eb.or([
            eb.and([
              eb('subjectType', '=', 'project'),
              visibleProjectRef(eb, 'statusUpdates.subjectId', 'statusUpdates.orgId', scope),
            ]),
            eb.and([
              eb('subjectType', '=', 'initiative'),
              visibleInitiativeRef(eb, 'statusUpdates.subjectId', 'statusUpdates.orgId', scope),
            ]),
            eb.and([
              eb('subjectType', '=', 'program'),
              visibleProgramRef(eb, 'statusUpdates.subjectId', 'statusUpdates.orgId', scope),
            ]),
          ]),
        )
      }
      const rows = await keysetPage(q, page, { sort: 'createdAt', id: 'id' }).execute()
      return rows.map(toUpdate)
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('statusUpdates')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await purge(orgId, 'update', [id])
    },
    async insertRevision(orgId, revision) {
      await db
        .insertInto('statusUpdateRevisions')
        .values({ ...revision, orgId })
        .execute()
    },
    async revisions(orgId, id, page) {
      const q = db
        .selectFrom('statusUpdateRevisions')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('updateId', '=', id)
      const rows = await keysetPage(q, page, { sort: 'replacedAt', id: 'id' }).execute()
      return rows.map(toRevision)
    },
  }
}

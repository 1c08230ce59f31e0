import {
  type ActorId,
  type Label,
  type LabelId,
  labelNameKey,
  type OrgId,
  type TeamId,
} from '@workgraph/core'
import type { LabelRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Row = { [K in keyof Database['labels']]: unknown }

export function toLabel(r: Row): Label {
  return {
    id: r.id as LabelId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId | null,
    parentId: r.parentId as LabelId | null,
    isGroup: Boolean(Number(r.isGroup)),
    name: r.name as string,
    color: r.color as string,
    description: r.description as string | null,
    creatorId: r.creatorId as ActorId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

/** Puts labels (at least one) on a task, those it carries already left as they are: a query to run or compose. */
export function taskLabelsInsert(
  db: Kysely<Database>,
  orgId: string,
  taskId: string,
  labelIds: readonly string[],
  by: { actorId: string; at: string },
) {
  return taskLabelRowsInsert(db, taskLabelRows(orgId, taskId, labelIds, by))
}

/** The rows of labels put on a task. */
export function taskLabelRows(
  orgId: string,
  taskId: string,
  labelIds: readonly string[],
  by: { actorId: string; at: string },
) {
  return labelIds.map((labelId) => ({ orgId, taskId, labelId, createdBy: by.actorId, createdAt: by.at }))
}

/** The insert of task label rows (or stand-ins for them, see `rowsOnce`); one already there stays. */
export function taskLabelRowsInsert(db: Kysely<Database>, rows: readonly Record<string, string>[]) {
  return db
    .insertInto('taskLabels')
    .values(rows as never)
    .onConflict((oc) => oc.columns(['orgId', 'taskId', 'labelId']).doNothing())
}

export function labelRepo(db: Kysely<Database>): LabelRepo {
  return {
    async insert(label) {
      await db
        .insertInto('labels')
        .values({ ...label, isGroup: label.isGroup ? 1 : 0, nameKey: labelNameKey(label.name) })
        .execute()
    },
    async get(orgId, id, scope) {
      let q = db.selectFrom('labels').selectAll().where('orgId', '=', orgId).where('id', '=', id)
      if (!scope.orgWide)
        q = q.where((eb) => eb.or([eb('teamId', 'is', null), inVisibleTeams(eb, 'teamId', scope)]))
      const row = await q.executeTakeFirst()
      return row ? toLabel(row) : null
    },
    async getMany(orgId, ids, scope) {
      if (ids.length === 0) return []
      let q = db
        .selectFrom('labels')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', 'in', [...ids])
      if (!scope.orgWide)
        q = q.where((eb) => eb.or([eb('teamId', 'is', null), inVisibleTeams(eb, 'teamId', scope)]))
      return (await q.execute()).map((r) => toLabel(r))
    },
    async list(orgId, filter, page, scope) {
      let q = db.selectFrom('labels').selectAll().where('orgId', '=', orgId)
      if (!scope.orgWide)
        q = q.where((eb) => eb.or([eb('teamId', 'is', null), inVisibleTeams(eb, 'teamId', scope)]))
      const teamId = filter.appliesToTeamId
      if (teamId) q = q.where((eb) => eb.or([eb('teamId', 'is', null), eb('teamId', '=', teamId)]))
      if (filter.parentId) q = q.where('parentId', '=', filter.parentId)
      if (filter.archived === true) q = q.where('archivedAt', 'is not', null)
      if (filter.archived === false) q = q.where('archivedAt', 'is', null)
      const rows = await keysetPage(q, page, { sort: 'nameKey', id: 'id' }).execute()
      return rows.map((r) => toLabel(r))
    },
    async findActiveByName(orgId, teamId, name, exceptId) {
      let q = db
        .selectFrom('labels')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('nameKey', '=', labelNameKey(name))
        .where('archivedAt', 'is', null)
        .where('teamId', teamId === null ? 'is' : '=', teamId)
      if (exceptId) q = q.where('id', '!=', exceptId)
      const row = await q.executeTakeFirst()
      return row ? toLabel(row) : null
    },
    async update(orgId, id, patch) {
      await db
        .updateTable('labels')
        .set({ ...patch, ...(patch.name ? { nameKey: labelNameKey(patch.name) } : {}) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      const removed = await db
        .deleteFrom('taskLabels')
        .where('orgId', '=', orgId)
        .where('labelId', '=', id)
        .executeTakeFirst()
      await db
        .updateTable('labels')
        .set({ parentId: null })
        .where('orgId', '=', orgId)
        .where('parentId', '=', id)
        .execute()
      await db.deleteFrom('labels').where('orgId', '=', orgId).where('id', '=', id).execute()
      return Number(removed.numDeletedRows)
    },
    async labelIdsOf(orgId, taskId) {
      const rows = await db
        .selectFrom('taskLabels')
        .select('labelId')
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .orderBy('createdAt')
        .orderBy('labelId')
        .execute()
      return rows.map((r) => r.labelId as LabelId)
    },
    async addToTask(orgId, taskId, labelIds, by) {
      if (labelIds.length === 0) return 0
      const result = await taskLabelsInsert(db, orgId, taskId, labelIds, by).executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0n)
    },
    async removeFromTask(orgId, taskId, labelId) {
      const result = await db
        .deleteFrom('taskLabels')
        .where('orgId', '=', orgId)
        .where('taskId', '=', taskId)
        .where('labelId', '=', labelId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
    async countTasksSharingGroup(orgId, labelId, groupId) {
      const row = await db
        .selectFrom('taskLabels as mine')
        .innerJoin('taskLabels as other', (j) =>
          j.onRef('other.orgId', '=', 'mine.orgId').onRef('other.taskId', '=', 'mine.taskId'),
        )
        .innerJoin('labels', (j) =>
          j.onRef('labels.orgId', '=', 'other.orgId').onRef('labels.id', '=', 'other.labelId'),
        )
        .select(sql<number | string>`count(distinct mine.task_id)`.as('n'))
        .where('mine.orgId', '=', orgId)
        .where('mine.labelId', '=', labelId)
        .where('other.labelId', '!=', labelId)
        .where('labels.parentId', '=', groupId)
        .executeTakeFirst()
      return Number(row?.n ?? 0)
    },
  }
}

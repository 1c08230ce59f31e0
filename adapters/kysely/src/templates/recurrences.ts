import type {
  ActorId,
  OrgId,
  ReadScope,
  Recurrence,
  RecurrenceId,
  TaskId,
  TeamId,
  TemplateId,
} from '@workgraph/core'
import type { RecurrenceFilter, RecurrenceRepo } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Row = { [K in keyof Database['recurrences']]: unknown }

function toRecurrence(r: Row): Recurrence {
  return {
    id: r.id as RecurrenceId,
    orgId: r.orgId as OrgId,
    teamId: r.teamId as TeamId,
    templateId: r.templateId as TemplateId,
    name: r.name as string,
    schedule: json(r.schedule),
    startDate: r.startDate as string,
    nextOccurrence: r.nextOccurrence as string | null,
    lastOccurrence: r.lastOccurrence as string | null,
    pausedAt: isoOrNull(r.pausedAt as string | null),
    creatorId: r.creatorId as ActorId,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
  }
}

export function recurrenceRepo(db: Kysely<Database>): RecurrenceRepo {
  const visible = (orgId: OrgId, filter: RecurrenceFilter, scope: ReadScope) => {
    let q = db.selectFrom('recurrences').selectAll().where('orgId', '=', orgId)
    if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'teamId', scope))
    if (filter.teamId) q = q.where('teamId', '=', filter.teamId)
    if (filter.templateId) q = q.where('templateId', '=', filter.templateId)
    if (filter.paused !== undefined) q = q.where('pausedAt', filter.paused ? 'is not' : 'is', null)
    return q
  }
  const occurrence = (orgId: string, id: string, date: string) =>
    db
      .updateTable('recurrenceOccurrences')
      .where('orgId', '=', orgId)
      .where('recurrenceId', '=', id)
      .where('date', '=', date)
  return {
    async insert(recurrence) {
      await db
        .insertInto('recurrences')
        .values({ ...recurrence, schedule: JSON.stringify(recurrence.schedule) })
        .execute()
    },
    async get(orgId, id, scope) {
      const row = await visible(orgId, {}, scope).where('id', '=', id).executeTakeFirst()
      return row ? toRecurrence(row) : null
    },
    async list(orgId, filter, page, scope) {
      const rows = await keysetPage(visible(orgId, filter, scope), page, {
        sort: 'createdAt',
        id: 'id',
      }).execute()
      return rows.map(toRecurrence)
    },
    async update(orgId, id, patch) {
      const { schedule, ...rest } = patch
      await db
        .updateTable('recurrences')
        .set({ ...rest, ...(schedule ? { schedule: JSON.stringify(schedule) } : {}) })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .execute()
    },
    async delete(orgId, id) {
      await db
        .deleteFrom('recurrenceOccurrences')
        .where('orgId', '=', orgId)
        .where('recurrenceId', '=', id)
        .execute()
      await db.deleteFrom('recurrences').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async due(today, after, limit) {
      let q = db
        .selectFrom('recurrences as r')
        .innerJoin('orgs as o', 'o.id', 'r.orgId')
        .select(['r.orgId', 'r.id'])
        .where('r.nextOccurrence', '<=', today)
        .where('r.pausedAt', 'is', null)
        .where('o.archivedAt', 'is', null)
      if (after) q = q.where((eb) => eb(eb.refTuple('r.orgId', 'r.id'), '>', eb.tuple(after.orgId, after.id)))
      const rows = await q.orderBy('r.orgId').orderBy('r.id').limit(limit).execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, id: r.id as RecurrenceId }))
    },
    async claimOccurrence(orgId, id, date, createdAt) {
      const result = await db
        .insertInto('recurrenceOccurrences')
        .values({ orgId, recurrenceId: id, date, taskId: null, createdAt })
        .onConflict((oc) => oc.columns(['orgId', 'recurrenceId', 'date']).doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async setOccurrenceTask(orgId, id, date, taskId) {
      await occurrence(orgId, id, date).set({ taskId }).execute()
    },
    async occurrences(orgId, id, page) {
      const rows = await keysetPage(
        db
          .selectFrom('recurrenceOccurrences')
          .select(['recurrenceId', 'date', 'taskId', 'createdAt'])
          .where('orgId', '=', orgId)
          .where('recurrenceId', '=', id),
        page,
        { sort: 'date', id: 'date' },
      ).execute()
      return rows.map((r) => ({
        recurrenceId: r.recurrenceId as RecurrenceId,
        date: r.date,
        taskId: r.taskId as TaskId | null,
        createdAt: iso(r.createdAt),
      }))
    },
  }
}

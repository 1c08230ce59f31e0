import type {
  MemberId,
  OrgId,
  ProjectId,
  ReadScope,
  TaskId,
  TimeEntry,
  TimeEntryId,
  TimeEntrySource,
} from '@workgraph/core'
import type { TimeEntryFilter, TimeEntryRepo } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { int, iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleTask } from '../scope.ts'

type Row = { [K in keyof Database['timeEntries']]: unknown } & { projectId: unknown }

const toEntry = (r: Row): TimeEntry => ({
  id: r.id as TimeEntryId,
  orgId: r.orgId as OrgId,
  taskId: r.taskId as TaskId,
  projectId: r.projectId as ProjectId | null,
  memberId: r.memberId as MemberId,
  minutes: int(r.minutes as number),
  date: r.date as string,
  note: r.note as string | null,
  source: r.source as TimeEntrySource,
  startedAt: isoOrNull(r.startedAt as string | null),
  createdAt: iso(r.createdAt as string),
  updatedAt: iso(r.updatedAt as string),
})

const GROUP_COLUMN = {
  project: 't.projectId',
  person: 'e.memberId',
  task: 'e.taskId',
  week: 'e.week',
} as const

export function timeEntryRepo(db: Kysely<Database>): TimeEntryRepo {
  /**
   * Entries on live tasks the scope may view, with the task's project: the permission predicate is
   * the task read's (scope.ts), so pages and sums are exact.
   */
  const visible = (orgId: OrgId, filter: TimeEntryFilter, scope: ReadScope) => {
    let q = db
      .selectFrom('timeEntries as e')
      .innerJoin('tasks as t', (j) => j.onRef('t.orgId', '=', 'e.orgId').onRef('t.id', '=', 'e.taskId'))
      .where('e.orgId', '=', orgId)
      .where('t.deletedAt', 'is', null)
    if (!scope.orgWide) q = q.where((eb) => visibleTask(eb, 't', scope))
    if (filter.memberId) q = q.where('e.memberId', '=', filter.memberId)
    if (filter.taskId) q = q.where('e.taskId', '=', filter.taskId)
    if (filter.projectId) q = q.where('t.projectId', '=', filter.projectId)
    if (filter.from) q = q.where('e.date', '>=', filter.from)
    if (filter.to) q = q.where('e.date', '<=', filter.to)
    return q
  }
  const rows = (orgId: OrgId, filter: TimeEntryFilter, scope: ReadScope) =>
    visible(orgId, filter, scope).selectAll('e').select('t.projectId')

  return {
    async insert(entry) {
      await db.insertInto('timeEntries').values(entry).execute()
    },
    async get(orgId, id, scope) {
      const row = await rows(orgId, {}, scope).where('e.id', '=', id).executeTakeFirst()
      return row ? toEntry(row) : null
    },
    async list(orgId, filter, page, scope) {
      const found = await keysetPage(rows(orgId, filter, scope), page, {
        sort: 'e.date',
        id: 'e.id',
      }).execute()
      return found.map(toEntry)
    },
    async update(orgId, id, patch) {
      await db.updateTable('timeEntries').set(patch).where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async delete(orgId, id) {
      await db.deleteFrom('timeEntries').where('orgId', '=', orgId).where('id', '=', id).execute()
    },
    async summary(orgId, filter, groupBy, limit, scope) {
      const key = sql.ref(GROUP_COLUMN[groupBy])
      const minutes = sql<number>`coalesce(sum(${sql.ref('e.minutes')}), 0)`
      const totals = await visible(orgId, filter, scope)
        .select([minutes.as('minutes'), sql<number>`count(*)`.as('entries')])
        .executeTakeFirstOrThrow()
      let grouped = visible(orgId, filter, scope)
        .select([key.as('key'), minutes.as('minutes'), sql<number>`count(*)`.as('entries')])
        .groupBy(key)
      grouped =
        groupBy === 'week'
          ? grouped.orderBy(key, 'asc')
          : grouped.orderBy(minutes, 'desc').orderBy(sql`${key} is null`).orderBy(key, 'asc')
      const groups = await grouped.limit(limit + 1).execute()
      return {
        totalMinutes: int(totals.minutes),
        entries: int(totals.entries),
        groups: groups.slice(0, limit).map((g) => ({
          key: (g.key as string | null) ?? null,
          minutes: int(g.minutes),
          entries: int(g.entries),
        })),
        truncated: groups.length > limit,
      }
    },
  }
}

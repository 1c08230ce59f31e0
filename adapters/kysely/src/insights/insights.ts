import type { ActorId, CycleId } from '@workgraph/core'
import type { Bucket, InsightsRepo, ProjectWeekBuckets } from '@workgraph/core/storage'
import { type Expression, type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely'
import { int, iso, isoOrNull } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams, visibleTask } from '../scope.ts'

/** `YYYY-MM-DD` of a timestamp column, in UTC. SQLite stores ISO text already in UTC. */
function dayExpr(dialect: Dialect, column: Expression<unknown>): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(${column}, 1, 10)`
}

/** The Monday (UTC) of the week holding a timestamp column, as `YYYY-MM-DD`. */
function weekExpr(dialect: Dialect, column: Expression<unknown>): RawBuilder<string> {
  return dialect === 'postgres'
    ? sql<string>`to_char(date_trunc('week', ${column} at time zone 'UTC'), 'YYYY-MM-DD')`
    : // 'weekday 0' moves to the next Sunday (or stays on one); six days back is that week's Monday.
      sql<string>`date(${column}, 'weekday 0', '-6 days')`
}

/** Hours between two timestamp columns. */
function hoursExpr(dialect: Dialect, from: Expression<unknown>, to: Expression<unknown>): RawBuilder<number> {
  return dialect === 'postgres'
    ? sql<number>`extract(epoch from (${to} - ${from})) / 3600.0`
    : sql<number>`(julianday(${to}) - julianday(${from})) * 24.0`
}

const num = (v: unknown) => (v === null || v === undefined ? 0 : Number(v))
const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v))
const toBuckets = (rows: { key: string | null; count: unknown; points: unknown }[]): Bucket[] =>
  rows
    .filter((r) => r.key !== null)
    .map((r) => ({ key: r.key!, count: int(r.count as number), points: num(r.points) }))

export function insightsRepo(db: Kysely<Database>, dialect: Dialect): InsightsRepo {
  const ref = (column: string) => sql.ref(column)
  const points = sql<number>`coalesce(sum(${ref('tasks.estimate')}), 0)`
  /** Live tasks of the org the scope may view. */
  const visibleTasks = (orgId: string, scope: Parameters<InsightsRepo['workload']>[3]) => {
    let q = db.selectFrom('tasks').where('tasks.orgId', '=', orgId).where('tasks.deletedAt', 'is', null)
    if (!scope.orgWide) q = q.where((eb) => inVisibleTeams(eb, 'tasks.teamId', scope))
    return q
  }

  return {
    async cycleDays(orgId, cycleId, scope) {
      const inCycle = visibleTasks(orgId, scope)
        .where('tasks.cycleId', '=', cycleId)
        .where('tasks.canceledAt', 'is', null)
      // When the task last moved into the cycle (it is in it now, so its last cycle change brought it here).
      const joined = sql`coalesce((select max(h.created_at) from task_history h
        where h.org_id = ${ref('tasks.orgId')} and h.task_id = ${ref('tasks.id')} and h.field = 'cycleId'),
        ${ref('tasks.createdAt')})`
      const addedDay = dayExpr(dialect, joined)
      const added = await inCycle
        .select([addedDay.as('key'), sql<number>`count(*)`.as('count'), points.as('points')])
        .groupBy(addedDay)
        .execute()
      const completedDay = dayExpr(dialect, ref('tasks.completedAt'))
      const completed = await inCycle
        .where('tasks.completedAt', 'is not', null)
        .select([completedDay.as('key'), sql<number>`count(*)`.as('count'), points.as('points')])
        .groupBy(completedDay)
        .execute()
      return { added: toBuckets(added), completed: toBuckets(completed) }
    },

    async projectWeeks(orgId, projectIds, scope) {
      if (projectIds.length === 0) return []
      let inProjects = db
        .selectFrom('tasks')
        .where('tasks.orgId', '=', orgId)
        .where('tasks.projectId', 'in', projectIds)
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.canceledAt', 'is', null)
      if (!scope.orgWide) inProjects = inProjects.where((eb) => visibleTask(eb, 'tasks', scope))
      // When the task last moved into its project (it is in it now), else when it was created.
      const joined = sql`coalesce((select max(h.created_at) from task_history h
        where h.org_id = ${ref('tasks.orgId')} and h.task_id = ${ref('tasks.id')} and h.field = 'projectId'),
        ${ref('tasks.createdAt')})`
      const byWeek = async (at: Expression<unknown>, only?: 'startedOrCompleted' | 'completed') => {
        const week = weekExpr(dialect, at)
        let q = inProjects
        if (only === 'completed') q = q.where('tasks.completedAt', 'is not', null)
        if (only === 'startedOrCompleted')
          q = q.where((eb) =>
            eb.or([eb('tasks.startedAt', 'is not', null), eb('tasks.completedAt', 'is not', null)]),
          )
        const rows = await q
          .select(['tasks.projectId', week.as('key'), sql<number>`count(*)`.as('count'), points.as('points')])
          .groupBy(['tasks.projectId', week])
          .execute()
        const by = new Map<string, Bucket[]>()
        for (const r of rows) {
          const id = r.projectId as string
          by.set(id, [...(by.get(id) ?? []), ...toBuckets([r])])
        }
        return by
      }
      // A task counts as started or completed no earlier than it joined, so no week shows more done than scope.
      const latest = (a: Expression<unknown>) =>
        dialect === 'postgres' ? sql`greatest(${a}, ${joined})` : sql`max(${a}, ${joined})`
      const added = await byWeek(joined)
      const started = await byWeek(
        latest(sql`coalesce(${ref('tasks.startedAt')}, ${ref('tasks.completedAt')})`),
        'startedOrCompleted',
      )
      const completed = await byWeek(latest(ref('tasks.completedAt')), 'completed')
      return [...added.keys()].sort().map(
        (projectId): ProjectWeekBuckets => ({
          projectId: projectId as ProjectWeekBuckets['projectId'],
          added: added.get(projectId) ?? [],
          started: started.get(projectId) ?? [],
          completed: completed.get(projectId) ?? [],
        }),
      )
    },

    async teamWeeks(orgId, teamId, since, scope) {
      const ofTeam = visibleTasks(orgId, scope).where('tasks.teamId', '=', teamId)
      const createdWeek = weekExpr(dialect, ref('tasks.createdAt'))
      const created = await ofTeam
        .where('tasks.createdAt', '>=', since)
        .select([createdWeek.as('key'), sql<number>`count(*)`.as('count'), points.as('points')])
        .groupBy(createdWeek)
        .execute()
      const completedWeek = weekExpr(dialect, ref('tasks.completedAt'))
      const completed = await ofTeam
        .where('tasks.completedAt', '>=', since)
        .select([completedWeek.as('key'), sql<number>`count(*)`.as('count'), points.as('points')])
        .groupBy(completedWeek)
        .execute()
      return { created: toBuckets(created), completed: toBuckets(completed) }
    },

    async cycleTimes(orgId, teamId, since, scope) {
      const week = weekExpr(dialect, ref('tasks.completedAt'))
      const cycle = hoursExpr(dialect, ref('tasks.startedAt'), ref('tasks.completedAt'))
      const lead = hoursExpr(dialect, ref('tasks.createdAt'), ref('tasks.completedAt'))
      const rows = await visibleTasks(orgId, scope)
        .where('tasks.teamId', '=', teamId)
        .where('tasks.completedAt', '>=', since)
        .where('tasks.startedAt', 'is not', null)
        .select([
          week.as('key'),
          sql<number>`count(*)`.as('count'),
          sql<number>`avg(${cycle})`.as('averageHours'),
          sql<number>`min(${cycle})`.as('minHours'),
          sql<number>`max(${cycle})`.as('maxHours'),
          sql<number>`avg(${lead})`.as('averageLeadHours'),
        ])
        .groupBy(week)
        .execute()
      return rows.map((r) => ({
        key: r.key,
        count: int(r.count),
        averageHours: numOrNull(r.averageHours),
        minHours: numOrNull(r.minHours),
        maxHours: numOrNull(r.maxHours),
        averageLeadHours: numOrNull(r.averageLeadHours),
      }))
    },

    async velocity(orgId, teamId, now, limit, scope) {
      // The tasks of each cycle, aggregated in a correlated subquery with the scope's predicate.
      const agg = (select: RawBuilder<number>, completedOnly: boolean) => {
        let q = visibleTasks(orgId, scope)
          .where(sql<SqlBool>`${ref('tasks.cycleId')} = ${ref('cycles.id')}`)
          .where('tasks.canceledAt', 'is', null)
        if (completedOnly) q = q.where('tasks.completedAt', 'is not', null)
        return q.select(select.as('v'))
      }
      const count = sql<number>`count(*)`
      const rows = await db
        .selectFrom('cycles')
        .selectAll('cycles')
        .select([
          agg(count, false).as('scopeCount'),
          agg(points, false).as('scopePoints'),
          agg(count, true).as('completedCount'),
          agg(points, true).as('completedPoints'),
        ])
        .where('cycles.orgId', '=', orgId)
        .where('cycles.teamId', '=', teamId)
        .where('cycles.startsAt', '<=', now)
        .orderBy('cycles.startsAt', 'desc')
        .orderBy('cycles.id', 'desc')
        .limit(limit)
        .execute()
      return rows.map((r) => ({
        cycleId: r.id as CycleId,
        number: int(r.number),
        name: r.name,
        startsAt: iso(r.startsAt),
        endsAt: iso(r.endsAt),
        completedAt: isoOrNull(r.completedAt),
        scopeCount: num(r.scopeCount),
        scopePoints: num(r.scopePoints),
        completedCount: num(r.completedCount),
        completedPoints: num(r.completedPoints),
      }))
    },

    async workload(orgId, filter, today, scope) {
      let q = visibleTasks(orgId, scope)
        .where('tasks.completedAt', 'is', null)
        .where('tasks.canceledAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
      if (filter.teamId) q = q.where('tasks.teamId', '=', filter.teamId)
      if (filter.projectId) q = q.where('tasks.projectId', '=', filter.projectId)
      const open = sql<number>`count(*)`
      const rows = await q
        .select([
          'tasks.assigneeId',
          open.as('openCount'),
          points.as('openPoints'),
          sql<number>`sum(case when ${ref('tasks.startedAt')} is not null then 1 else 0 end)`.as(
            'startedCount',
          ),
          sql<number>`sum(case when ${ref('tasks.dueDate')} < ${today} then 1 else 0 end)`.as('overdueCount'),
          sql<number>`sum(case when ${ref('tasks.estimate')} is null then 1 else 0 end)`.as(
            'unestimatedCount',
          ),
        ])
        .groupBy('tasks.assigneeId')
        .orderBy(open, 'desc')
        // Unassigned work last among ties on both databases (they sort nulls differently).
        .orderBy(sql`case when ${ref('tasks.assigneeId')} is null then 1 else 0 end`)
        .orderBy('tasks.assigneeId')
        .execute()
      return rows.map((r) => ({
        assigneeId: (r.assigneeId ?? null) as ActorId | null,
        openCount: num(r.openCount),
        openPoints: num(r.openPoints),
        startedCount: num(r.startedCount),
        overdueCount: num(r.overdueCount),
        unestimatedCount: num(r.unestimatedCount),
      }))
    },
  }
}

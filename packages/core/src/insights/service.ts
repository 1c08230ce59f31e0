import { requireCycle } from '../cycles/service.ts'
import { datesFrom, shiftDateWithin } from '../kernel/calendar.ts'
import { currentOrg } from '../kernel/context.ts'
import type { CycleId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { requireProject } from '../projects/service.ts'
import { requireTeam } from '../teams/service.ts'
import type { CycleBurndown, TeamCycleTime, TeamThroughput, TeamVelocity, Workload } from './schemas.ts'
import type { Bucket } from './storage.ts'

const dayOf = (iso: string) => iso.slice(0, 10)

/** The Monday (UTC) starting the week that holds `iso`. */
export function weekStartOf(iso: string): string {
  const date = new Date(`${dayOf(iso)}T00:00:00.000Z`)
  return shiftDateWithin(dayOf(iso), -((date.getUTCDay() + 6) % 7))
}

/** The Mondays of the last `weeks` weeks, oldest first, the current week last. */
export function weekStarts(now: string, weeks: number): string[] {
  const last = weekStartOf(now)
  return Array.from({ length: weeks }, (_, i) => shiftDateWithin(last, (i - weeks + 1) * 7))
}

const byKey = <T extends { key: string }>(rows: T[]) => new Map(rows.map((r) => [r.key, r]))

/**
 * Day by day from the cycle's first day to its last (or today while it runs). Tasks that joined
 * before the cycle started count on its first day. Only the cycle's current tasks count: a task
 * moved out no longer shows on any day (docs/insights.md).
 */
export async function cycleBurndown(ctx: OperationContext, cycleId: CycleId): Promise<CycleBurndown> {
  const cycle = await requireCycle(ctx, cycleId)
  const { added, completed } = await ctx.store.insights.cycleDays(
    currentOrg(ctx).id,
    cycle.id,
    await ctx.scope(),
  )
  const first = dayOf(cycle.startsAt)
  // `endsAt` is exclusive: a cycle ending at midnight ends on the previous day.
  const lastDay = dayOf(new Date(Date.parse(cycle.endsAt) - 1).toISOString())
  const last = [lastDay, dayOf(ctx.now)].sort()[0]!
  const days: CycleBurndown['days'] = []
  let scope = { count: 0, points: 0 }
  let done = { count: 0, points: 0 }
  const sum = (rows: Bucket[], pred: (key: string) => boolean) =>
    rows
      .filter((r) => pred(r.key))
      .reduce((a, r) => ({ count: a.count + r.count, points: a.points + r.points }), {
        count: 0,
        points: 0,
      })
  for (const day of datesFrom(first, last)) {
    const inDay = (key: string) => (day === first ? key <= day : key === day)
    const a = sum(added, inDay)
    const c = sum(completed, inDay)
    scope = { count: scope.count + a.count, points: scope.points + a.points }
    done = { count: done.count + c.count, points: done.points + c.points }
    days.push({
      date: day,
      scopeCount: scope.count,
      scopePoints: scope.points,
      addedCount: a.count,
      addedPoints: a.points,
      completedCount: done.count,
      completedPoints: done.points,
      remainingCount: scope.count - done.count,
      remainingPoints: scope.points - done.points,
    })
  }
  return { cycleId: cycle.id, teamId: cycle.teamId, startsAt: cycle.startsAt, endsAt: cycle.endsAt, days }
}

export async function teamThroughput(
  ctx: OperationContext,
  teamId: TeamId,
  query: { weeks?: number },
): Promise<TeamThroughput> {
  const team = await requireTeam(ctx, teamId)
  const weeks = weekStarts(ctx.now, query.weeks ?? 12)
  const since = `${weeks[0]}T00:00:00.000Z`
  const rows = await ctx.store.insights.teamWeeks(currentOrg(ctx).id, team.id, since, await ctx.scope())
  const created = byKey(rows.created)
  const completed = byKey(rows.completed)
  return {
    teamId: team.id,
    weeks: weeks.map((weekStart) => ({
      weekStart,
      createdCount: created.get(weekStart)?.count ?? 0,
      completedCount: completed.get(weekStart)?.count ?? 0,
      completedPoints: completed.get(weekStart)?.points ?? 0,
    })),
  }
}

export async function teamCycleTime(
  ctx: OperationContext,
  teamId: TeamId,
  query: { weeks?: number },
): Promise<TeamCycleTime> {
  const team = await requireTeam(ctx, teamId)
  const weeks = weekStarts(ctx.now, query.weeks ?? 12)
  const since = `${weeks[0]}T00:00:00.000Z`
  const rows = byKey(
    await ctx.store.insights.cycleTimes(currentOrg(ctx).id, team.id, since, await ctx.scope()),
  )
  const round = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100)
  return {
    teamId: team.id,
    weeks: weeks.map((weekStart) => {
      const r = rows.get(weekStart)
      return {
        weekStart,
        completedCount: r?.count ?? 0,
        averageHours: round(r?.averageHours ?? null),
        minHours: round(r?.minHours ?? null),
        maxHours: round(r?.maxHours ?? null),
        averageLeadHours: round(r?.averageLeadHours ?? null),
      }
    }),
  }
}

export async function teamVelocity(
  ctx: OperationContext,
  teamId: TeamId,
  query: { cycles?: number },
): Promise<TeamVelocity> {
  const team = await requireTeam(ctx, teamId)
  const cycles = await ctx.store.insights.velocity(
    currentOrg(ctx).id,
    team.id,
    ctx.now,
    query.cycles ?? 6,
    await ctx.scope(),
  )
  const finished = cycles.filter((c) => c.completedAt !== null)
  const mean = (values: number[]) =>
    values.length === 0 ? null : Math.round((values.reduce((a, v) => a + v, 0) / values.length) * 100) / 100
  return {
    teamId: team.id,
    cycles,
    averageCompletedPoints: mean(finished.map((c) => c.completedPoints)),
    averageCompletedCount: mean(finished.map((c) => c.completedCount)),
  }
}

export async function workload(
  ctx: OperationContext,
  query: { teamId?: string; projectId?: string },
): Promise<Workload> {
  const filter: { teamId?: TeamId; projectId?: ProjectId } = {}
  // A named team or project must be one the reader can view (404 otherwise, as a missing one).
  if (query.teamId) filter.teamId = (await requireTeam(ctx, query.teamId as TeamId)).id
  if (query.projectId) filter.projectId = (await requireProject(ctx, query.projectId as ProjectId)).id
  const assignees = await ctx.store.insights.workload(
    currentOrg(ctx).id,
    filter,
    dayOf(ctx.now),
    await ctx.scope(),
  )
  return { asOf: ctx.now, assignees }
}

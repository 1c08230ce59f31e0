import { rolledUpProjectIds } from '../initiatives/rollup.ts'
import { currentOrg } from '../kernel/context.ts'
import type { InitiativeId, ProgramId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { rolledUpProjects } from '../programs/rollup.ts'
import { requireProgram } from '../programs/service.ts'
import { requireProject } from '../projects/service.ts'
import type {
  InitiativeProgressHistory,
  ProgramProgressHistory,
  ProgressWeek,
  ProjectProgressHistory,
} from './schemas.ts'
import { weekStarts } from './service.ts'
import type { Bucket, ProjectWeekBuckets } from './storage.ts'

type Week = typeof ProgressWeek.static

/**
 * Cumulative weekly figures from the buckets, like `cycles.burndown` day by day: the first week also
 * takes in everything before it. Started is what started by the week's end less what was completed.
 */
function seriesOf(weeks: string[], buckets: Omit<ProjectWeekBuckets, 'projectId'>): Week[] {
  const upTo = (rows: Bucket[], week: string) =>
    rows
      .filter((r) => r.key <= week)
      .reduce((a, r) => ({ count: a.count + r.count, points: a.points + r.points }), { count: 0, points: 0 })
  return weeks.map((weekStart) => {
    const scope = upTo(buckets.added, weekStart)
    const started = upTo(buckets.started, weekStart)
    const completed = upTo(buckets.completed, weekStart)
    return {
      weekStart,
      scopeCount: scope.count,
      scopePoints: scope.points,
      startedCount: started.count - completed.count,
      startedPoints: started.points - completed.points,
      completedCount: completed.count,
      completedPoints: completed.points,
    }
  })
}

/** One series per project (zeros for a project without visible tasks), in the order given. */
async function seriesFor(
  ctx: OperationContext,
  projectIds: ProjectId[],
  weeks: number | undefined,
): Promise<{ weeks: string[]; projects: ProjectProgressHistory[] }> {
  const starts = weekStarts(ctx.now, weeks ?? 12)
  const rows = await ctx.store.insights.projectWeeks(currentOrg(ctx).id, projectIds, await ctx.scope())
  const by = new Map(rows.map((r) => [r.projectId as string, r]))
  const empty = { added: [], started: [], completed: [] }
  return {
    weeks: starts,
    projects: projectIds.map((projectId) => ({
      projectId,
      weeks: seriesOf(starts, by.get(projectId) ?? empty),
    })),
  }
}

/** Sums the projects' series week by week. */
function totalOf(weeks: string[], projects: ProjectProgressHistory[]): Week[] {
  return weeks.map((weekStart, i) => {
    const total: Week = {
      weekStart,
      scopeCount: 0,
      scopePoints: 0,
      startedCount: 0,
      startedPoints: 0,
      completedCount: 0,
      completedPoints: 0,
    }
    for (const p of projects) {
      const w = p.weeks[i]!
      total.scopeCount += w.scopeCount
      total.scopePoints += w.scopePoints
      total.startedCount += w.startedCount
      total.startedPoints += w.startedPoints
      total.completedCount += w.completedCount
      total.completedPoints += w.completedPoints
    }
    return total
  })
}

export async function projectProgressHistory(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { weeks?: number },
): Promise<ProjectProgressHistory> {
  const project = await requireProject(ctx, projectId)
  const { projects } = await seriesFor(ctx, [project.id as ProjectId], query.weeks)
  return projects[0]!
}

export async function programProgressHistory(
  ctx: OperationContext,
  programId: ProgramId,
  query: { weeks?: number },
): Promise<ProgramProgressHistory> {
  const program = await requireProgram(ctx, programId)
  const ids = (await rolledUpProjects(ctx, program)).map((p) => p.id as ProjectId).sort()
  const { weeks, projects } = await seriesFor(ctx, ids, query.weeks)
  return { programId: program.id, total: totalOf(weeks, projects), projects }
}

export async function initiativeProgressHistory(
  ctx: OperationContext,
  initiativeId: InitiativeId,
  query: { weeks?: number },
): Promise<InitiativeProgressHistory> {
  const ids = (await rolledUpProjectIds(ctx, initiativeId)).sort()
  const { weeks, projects } = await seriesFor(ctx, ids, query.weeks)
  return { initiativeId, total: totalOf(weeks, projects), projects }
}

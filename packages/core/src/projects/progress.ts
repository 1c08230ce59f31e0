import type { MilestoneId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import type { Task } from '../tasks/schemas.ts'
import { listTasks } from '../tasks/service.ts'
import { STATE_CATEGORIES } from '../teams/schemas.ts'
import type { ProjectProgress } from './schemas.ts'
import { requireProject } from './service.ts'

/** Tasks of the project by state category, counted only over the tasks the caller may view. */
export async function projectProgress(ctx: OperationContext, projectId: ProjectId): Promise<ProjectProgress> {
  const project = await requireProject(ctx, projectId)
  const tallies = await ctx.store.projects.progress(project.orgId, project.id, await ctx.scope())
  const byCategory = Object.fromEntries(
    STATE_CATEGORIES.map((c) => {
      const t = tallies.find((x) => x.category === c)
      return [c, { tasks: t?.tasks ?? 0, points: t?.points ?? 0 }]
    }),
  ) as ProjectProgress['byCategory']
  const sum = (key: 'tasks' | 'points') => tallies.reduce((n, t) => n + t[key], 0)
  const total = { tasks: sum('tasks'), points: sum('points') }
  // Canceled work is out of scope; points decide, unless nothing is estimated.
  const key = total.points - byCategory.canceled.points > 0 ? 'points' : 'tasks'
  const scope = total[key] - byCategory.canceled[key]
  return {
    projectId: project.id,
    total,
    byCategory,
    completedRatio: scope > 0 ? byCategory.completed[key] / scope : 0,
  }
}

/** The project's tasks, exactly as `tasks.list` would list them for the caller. */
export async function listProjectTasks(
  ctx: OperationContext,
  projectId: ProjectId,
  query: {
    cursor?: string
    limit?: number
    milestoneId?: string
    archived?: 'exclude' | 'only' | 'include'
  },
): Promise<Page<Task>> {
  const project = await requireProject(ctx, projectId)
  return listTasks(ctx, {
    ...query,
    projectId: project.id,
    milestoneId: query.milestoneId as MilestoneId | 'none' | undefined,
  })
}

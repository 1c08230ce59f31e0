import type { MilestoneId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { summarizeProgress } from '../tasks/progress.ts'
import type { Task } from '../tasks/schemas.ts'
import { listTasks } from '../tasks/service.ts'
import type { ProjectProgress } from './schemas.ts'
import { requireProject } from './service.ts'

/** Tasks of the project by state category, counted only over the tasks the caller may view. */
export async function projectProgress(ctx: OperationContext, projectId: ProjectId): Promise<ProjectProgress> {
  const project = await requireProject(ctx, projectId)
  const tallies = await ctx.store.projects.progress(project.orgId, project.id, await ctx.scope())
  return { projectId: project.id, ...summarizeProgress(tallies) }
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

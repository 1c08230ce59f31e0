import { currentOrg } from '../kernel/context.ts'
import type { ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { notFound } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { projectCadenceDefault, withCadence } from './cadence.ts'
import type { Project } from './schemas.ts'

/** A project record with every team, for events and internal checks; never answered to a caller. */
export async function unscopedProject(ctx: OperationContext, projectId: ProjectId): Promise<Project> {
  const project = await ctx.store.projects.get(currentOrg(ctx).id, projectId, UNSCOPED)
  if (!project) throw notFound('Project')
  return withCadence(project, ctx.now, await projectCadenceDefault(ctx))
}

/**
 * Project events are filed under the project's first team: whoever reads them can view that team,
 * and so the project. Readers who see the project only through another team do not get them.
 */
export function emitProject(
  ctx: OperationContext,
  kind: string,
  project: Project,
  data: Record<string, unknown>,
) {
  ctx.emit({
    kind,
    resourceType: 'project',
    resourceId: project.id,
    teamId: project.teamIds[0] as TeamId,
    data,
  })
}

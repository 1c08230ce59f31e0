import { currentOrg } from '../kernel/context.ts'
import type { MilestoneId, OrgId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { ProblemError } from '../kernel/problems.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import { referenceNotFound } from '../kernel/references.ts'

/** What placing a task needs of projects and milestones, which the projects group knows. */
export interface PlacementReader {
  /** The milestone's project, or null when the org has no such milestone. */
  milestone(ctx: OperationContext, orgId: OrgId, id: MilestoneId): Promise<{ projectId: ProjectId } | null>
  /** Whether the project is archived, or null when the reader cannot view it. */
  project(
    ctx: OperationContext,
    orgId: OrgId,
    id: ProjectId,
    scope: ReadScope,
  ): Promise<{ archived: boolean } | null>
}

// Projects sit above tasks in the groups' layering: this group may not read their storage, so the
// projects group fills this hook.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'tasks.placement': PlacementReader
  }
}

type Placement = { projectId?: ProjectId | null; milestoneId?: MilestoneId | null }

/**
 * Where a task lands after a create or update that names a project or milestone: the milestone
 * must belong to the project, a milestone alone sets its project, and leaving a project leaves its
 * milestone. The project must be one the caller may view and not archived. Returns the fields that
 * differ from the task's current ones (all of them on create). `read`: a placement the caller has
 * read (`projects.placement`), used when it is of the project the task lands in.
 */
export async function projectPlacement(
  ctx: OperationContext,
  task: { projectId: ProjectId | null; milestoneId: MilestoneId | null } | null,
  fields: Placement,
  read?: { projectId: ProjectId; placement: { archived: boolean } | null },
): Promise<Placement> {
  const orgId = currentOrg(ctx).id
  const placements = ctx.hook('tasks.placement')
  const current = { projectId: task?.projectId ?? null, milestoneId: task?.milestoneId ?? null }
  let projectId = fields.projectId !== undefined ? fields.projectId : current.projectId
  let milestoneId =
    fields.milestoneId !== undefined
      ? fields.milestoneId
      : projectId !== current.projectId
        ? null
        : current.milestoneId
  if (milestoneId && milestoneId !== current.milestoneId) {
    const milestone = await placements.milestone(ctx, orgId, milestoneId)
    if (milestone && fields.projectId === undefined) projectId = milestone.projectId
    if (!milestone || milestone.projectId !== projectId) {
      throw referenceProblem('/body/milestoneId', "The milestone is not a milestone of the task's project.")
    }
  }
  if (projectId && projectId !== current.projectId) {
    const project =
      read?.projectId === projectId
        ? read.placement
        : await placements.project(ctx, orgId, projectId, await ctx.scope())
    if (!project || project.archived) {
      const pointer = fields.projectId !== undefined ? '/body/projectId' : '/body/milestoneId'
      throw referenceProblem(pointer, 'The project does not exist, is not visible to you, or is archived.')
    }
  }
  if (!projectId) milestoneId = null
  const out: Placement = {}
  if (task === null || projectId !== current.projectId) out.projectId = projectId
  if (task === null || milestoneId !== current.milestoneId) out.milestoneId = milestoneId
  return out
}

function referenceProblem(pointer: string, detail: string): ProblemError {
  return referenceNotFound(pointer, detail)
}

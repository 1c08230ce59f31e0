import type { InitiativeId, OrgId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { KeysetPosition } from '../kernel/pagination.ts'
import { notFound } from '../kernel/problems.ts'
import { requireProject } from '../projects/service.ts'
import { recordHistory } from './history.ts'
import type { InitiativeProject } from './schemas.ts'
import { emitInitiative, requireInitiative, unscoped, usable } from './service.ts'

/**
 * Moves a linked project to `index` among the initiative's projects the caller can view (0 first;
 * past the end: last). The visible projects trade the places they held among themselves, so projects
 * hidden from the caller keep theirs and nothing reveals them.
 */
export async function moveInitiativeProject(
  ctx: OperationContext,
  id: InitiativeId,
  projectId: ProjectId,
  index: number,
): Promise<InitiativeProject> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  const project = await requireProject(ctx, projectId)
  const visible = await visibleLinks(ctx, initiative.orgId, initiative.id)
  const from = visible.findIndex((l) => l.projectId === project.id)
  if (from < 0) throw notFound('Project of the initiative')
  const to = Math.min(index, visible.length - 1)
  if (to !== from) {
    const slots = visible.map((l) => l.position)
    const order = visible.filter((l) => l.projectId !== project.id)
    order.splice(to, 0, visible[from]!)
    for (const [i, link] of order.entries()) {
      if (link.position !== slots[i]) {
        await ctx.store.initiatives.setProjectPosition(
          initiative.orgId,
          initiative.id,
          link.projectId,
          slots[i]!,
        )
      }
    }
    await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
    const changes = { projectId: project.id, index: { before: from, after: to } }
    await recordHistory(ctx, initiative.id, { action: 'project_updated', changes })
    emitInitiative(ctx, 'initiative.project_updated', await unscoped(ctx, initiative.id), {
      initiativeId: initiative.id,
      ...changes,
    })
  }
  return (await ctx.store.initiatives.projectLink(initiative.orgId, initiative.id, project.id))!
}

/** Every link the caller can view, in order (an initiative links tens of projects, not thousands). */
async function visibleLinks(
  ctx: OperationContext,
  orgId: OrgId,
  id: InitiativeId,
): Promise<InitiativeProject[]> {
  const scope = await ctx.scope()
  const links: InitiativeProject[] = []
  let after: KeysetPosition | null = null
  for (;;) {
    const page = await ctx.store.initiatives.listProjects(
      orgId,
      id,
      { sort: 'position', direction: 'asc', after, limit: 500 },
      scope,
    )
    links.push(...page.slice(0, 500))
    if (page.length <= 500) return links
    const last = page[499]!
    after = { value: last.position, id: last.projectId }
  }
}

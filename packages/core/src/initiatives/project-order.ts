import type { InitiativeId, OrgId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type MoveTo, placeMoved, withHiddenInPlace } from '../kernel/ordering.ts'
import type { KeysetPosition } from '../kernel/pagination.ts'
import { notFound } from '../kernel/problems.ts'
import { type ReadScope, UNSCOPED } from '../kernel/read-scope.ts'
import { requireProject } from '../projects/service.ts'
import { recordHistory } from './history/history.ts'
import type { InitiativeProject } from './schemas.ts'
import { emitInitiative, requireInitiative, unscoped, usable } from './service.ts'

/**
 * Moves a linked project just before or after another one the caller can view. The order is
 * decided among the projects the caller can view, so those hidden from the caller keep their places
 * and nothing reveals them; the whole list is then renumbered from 0. The event and history carry
 * the project's index among the caller's projects before and after.
 */
export async function moveInitiativeProject(
  ctx: OperationContext,
  id: InitiativeId,
  projectId: ProjectId,
  to: MoveTo,
): Promise<InitiativeProject> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  const project = await requireProject(ctx, projectId)
  const withId = (links: InitiativeProject[]) => links.map((l) => ({ ...l, id: l.projectId }))
  const visible = withId(await linksIn(ctx, initiative.orgId, initiative.id, await ctx.scope()))
  const from = visible.findIndex((l) => l.projectId === project.id)
  if (from < 0) throw notFound('Project of the initiative')
  const shown = placeMoved(visible, project.id, to, 'another project of the same initiative')
  if (shown.moved) {
    const all = withId(await linksIn(ctx, initiative.orgId, initiative.id, UNSCOPED))
    const order = withHiddenInPlace(all, shown.order)
    for (const [position, link] of order.entries()) {
      if (link.position !== position) {
        await ctx.store.initiatives.setProjectPosition(
          initiative.orgId,
          initiative.id,
          link.projectId,
          position,
        )
      }
    }
    await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
    const after = shown.order.findIndex((l) => l.projectId === project.id)
    const changes = { projectId: project.id, index: { before: from, after } }
    await recordHistory(ctx, initiative.id, { action: 'project_updated', changes })
    emitInitiative(ctx, 'initiative.project_updated', await unscoped(ctx, initiative.id), {
      initiativeId: initiative.id,
      ...changes,
    })
  }
  return (await ctx.store.initiatives.projectLink(initiative.orgId, initiative.id, project.id))!
}

/** Every link `scope` can view, in order (an initiative links tens of projects, not thousands). */
async function linksIn(
  ctx: OperationContext,
  orgId: OrgId,
  id: InitiativeId,
  scope: ReadScope,
): Promise<InitiativeProject[]> {
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

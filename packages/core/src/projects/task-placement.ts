import type { PlacementReader } from '../tasks/project.ts'

/**
 * The projects' part of placing a task in a project or milestone (`tasks/project.ts`): tasks sit
 * below projects and cannot read their storage, so this group fills the hook `tasks.placement`.
 */
export const taskPlacementReader: PlacementReader = {
  milestone: async (ctx, orgId, id) => {
    const milestone = await ctx.store.milestones.get(orgId, id)
    return milestone ? { projectId: milestone.projectId } : null
  },
  project: (ctx, orgId, id, scope) => ctx.store.projects.placement(orgId, id, scope),
}

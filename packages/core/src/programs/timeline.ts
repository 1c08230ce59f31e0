import { requireInitiative } from '../initiatives/service.ts'
import { currentOrg } from '../kernel/context.ts'
import type { InitiativeId, ProgramId, ProjectId, ProjectRelationId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { withStatus } from '../projects/milestones/milestones.ts'
import type { ProjectRow } from '../projects/storage.ts'
import type { Timeline } from './links/schemas.ts'
import { requireProgram } from './service.ts'

/** How many projects one timeline shows; past it, `truncated` says so. */
export const TIMELINE_MAX_PROJECTS = 200
const ALL = { direction: 'asc' as const, after: null, limit: 10_000 }

/** The program's unarchived projects the caller can view, with their milestones and dependencies. */
export async function programTimeline(ctx: OperationContext, programId: ProgramId): Promise<Timeline> {
  const program = await requireProgram(ctx, programId)
  const scope = await ctx.scope()
  const rows = await ctx.store.programs.projects(
    program.orgId,
    program.id,
    { sort: 'position', ...ALL },
    scope,
  )
  return timelineOf(
    ctx,
    rows.map((r) => r.projectId),
  )
}

/**
 * The initiative's timeline: the projects linked to it or to one of its visible, unarchived
 * sub-initiatives, and the projects of the programs any of them includes, each once.
 */
export async function initiativeTimeline(
  ctx: OperationContext,
  initiativeId: InitiativeId,
): Promise<Timeline> {
  const root = await requireInitiative(ctx, initiativeId)
  const scope = await ctx.scope()
  const subtree = (await ctx.store.initiatives.subtree(root.orgId, root.id, scope)).filter(
    (i) => i.id === root.id || !i.archivedAt,
  )
  const ids = subtree.map((i) => i.id)
  const projectIds: ProjectId[] = (await ctx.store.initiatives.projectLinks(root.orgId, ids, scope)).map(
    (l) => l.projectId,
  )
  for (const link of await ctx.store.initiativePrograms.allOf(root.orgId, ids)) {
    const program = await ctx.store.programs.get(root.orgId, link.programId)
    if (!program || program.archivedAt) continue
    const rows = await ctx.store.programs.projects(
      root.orgId,
      program.id,
      { sort: 'position', ...ALL },
      scope,
    )
    projectIds.push(...rows.map((r) => r.projectId))
  }
  return timelineOf(ctx, projectIds)
}

async function timelineOf(ctx: OperationContext, ids: readonly ProjectId[]): Promise<Timeline> {
  const orgId = currentOrg(ctx).id
  const scope = await ctx.scope()
  const projects: ProjectRow[] = []
  for (const id of new Set(ids)) {
    const project = await ctx.store.projects.get(orgId, id, scope)
    if (project && !project.archivedAt) projects.push(project)
  }
  projects.sort(byDates)
  const shown = projects.slice(0, TIMELINE_MAX_PROJECTS)
  const inTimeline = new Set<string>(shown.map((p) => p.id))
  const dependencies = new Map<string, Timeline['dependencies'][number] & { createdAt: string }>()
  const out: Timeline['projects'] = []
  for (const project of shown) {
    const milestones = await withStatus(ctx, project, await ctx.store.milestones.all(orgId, project.id))
    out.push({
      id: project.id,
      name: project.name,
      statusCategory: project.statusCategory,
      startDate: project.startDate,
      targetDate: project.targetDate,
      health: project.health,
      milestones: milestones.map((m) => ({
        id: m.id,
        name: m.name,
        targetDate: m.targetDate,
        status: m.status,
      })),
    })
    const relations = await ctx.store.projectRelations.list(
      orgId,
      project.id,
      { sort: 'createdAt', ...ALL },
      scope,
    )
    for (const r of relations) {
      if (r.type !== 'blocks' || !inTimeline.has(r.projectId) || !inTimeline.has(r.relatedProjectId)) continue
      dependencies.set(r.id, {
        id: r.id as ProjectRelationId,
        projectId: r.projectId,
        milestoneId: r.milestoneId,
        relatedProjectId: r.relatedProjectId,
        relatedMilestoneId: r.relatedMilestoneId,
        createdAt: r.createdAt,
      })
    }
  }
  return {
    projects: out,
    dependencies: [...dependencies.values()]
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(({ createdAt: _, ...d }) => d),
    truncated: projects.length > shown.length,
  }
}

/** By start date (undated last), then target date (undated last), name and id. */
function byDates(a: ProjectRow, b: ProjectRow): number {
  const date = (x: string | null, y: string | null) =>
    x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1
  return (
    date(a.startDate, b.startDate) ||
    date(a.targetDate, b.targetDate) ||
    a.name.localeCompare(b.name) ||
    a.id.localeCompare(b.id)
  )
}

import type { Initiative } from '../initiatives/schemas.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Program } from '../programs/schemas.ts'
import type { MilestoneRecord, ProjectRow } from '../projects/storage.ts'
import { page } from './candidates.ts'
import { matchName } from './match.ts'

// Name look-ups for the containers above tasks: projects and their milestones, programs and
// initiatives, with the rules of refs.ts (the caller's ReadScope decides what exists).

/** A project the caller can view (archived ones too), by id or name. */
export async function resolveProject(ctx: OperationContext, ref: string, pointer = ''): Promise<ProjectRow> {
  const orgId = currentOrg(ctx).id
  const projects = await ctx.store.projects.list(
    orgId,
    { archived: null },
    page('createdAt'),
    await ctx.scope(),
  )
  return matchName(
    'project',
    ref,
    projects.map((p) => ({
      value: p,
      id: p.id,
      names: [p.name],
      label: p.archivedAt ? `${p.name} (archived)` : p.name,
    })),
    pointer,
  )
}

/** A program of the workspace the caller may view (archived ones too), by id or name. */
export async function resolveProgram(ctx: OperationContext, ref: string, pointer = ''): Promise<Program> {
  const programs = await ctx.store.programs.list(
    currentOrg(ctx).id,
    { archived: null },
    page('createdAt'),
    await ctx.scope(),
  )
  return matchName(
    'program',
    ref,
    programs.map((p) => ({
      value: p,
      id: p.id,
      names: [p.name],
      label: p.archivedAt ? `${p.name} (archived)` : p.name,
    })),
    pointer,
  )
}

/**
 * An initiative the caller can view (archived ones too), by id, name or `Parent/Child` path: two
 * initiatives of one name are told apart by their parents in the candidates.
 */
export async function resolveInitiative(
  ctx: OperationContext,
  ref: string,
  pointer = '',
): Promise<Initiative> {
  const initiatives = await ctx.store.initiatives.list(
    currentOrg(ctx).id,
    { archived: null },
    page('createdAt'),
    await ctx.scope(),
  )
  const byId = new Map(initiatives.map((i) => [i.id as string, i]))
  const pathOf = (i: Initiative): string => {
    const parent = i.parentId ? byId.get(i.parentId) : undefined
    return parent ? `${pathOf(parent)}/${i.name}` : i.name
  }
  return matchName(
    'initiative',
    ref,
    initiatives.map((i) => ({
      value: i,
      id: i.id,
      names: [i.name, pathOf(i)],
      label: `${pathOf(i)}${i.archivedAt ? ' (archived)' : ''}`,
    })),
    pointer,
  )
}

/**
 * A milestone by id or name: within `projectId` when given, otherwise among the milestones of every
 * project the caller can view (a name two projects use is ambiguous; candidates name the project).
 */
export async function resolveMilestone(
  ctx: OperationContext,
  ref: string,
  projectId?: ProjectId,
  pointer = '',
): Promise<MilestoneRecord & { projectName: string }> {
  const orgId = currentOrg(ctx).id
  const visible = await ctx.store.projects.list(
    orgId,
    { archived: null },
    page('createdAt'),
    await ctx.scope(),
  )
  const projects = projectId ? visible.filter((p) => p.id === projectId) : visible
  const candidates = []
  for (const project of projects) {
    for (const m of await ctx.store.milestones.list(orgId, project.id, page('position')))
      candidates.push({
        value: { ...m, projectName: project.name },
        id: m.id,
        names: [m.name, `${project.name}/${m.name}`, `${project.name} / ${m.name}`],
        label: `${m.name} (${project.name})`,
      })
  }
  return matchName(
    projectId ? `milestone of ${projects[0]?.name ?? 'the project'}` : 'milestone',
    ref,
    candidates,
    pointer,
  )
}

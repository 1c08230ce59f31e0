import { currentOrg } from '../kernel/context.ts'
import type { InitiativeId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { ProjectStatusCategory } from '../projects/schemas.ts'
import { type StateTally, summarizeProgress } from '../tasks/progress.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import { metricProgress } from './metric/metric.ts'
import { type ProgramContribution, type ProgramFacts, programContribution } from './program-contribution.ts'
import type {
  ComputedHealth,
  HealthReason,
  Initiative,
  InitiativeRollup,
  InitiativeTree,
  InitiativeTreeNode,
} from './schemas.ts'
import { INITIATIVE_TREE_MAX } from './schemas.ts'
import { requireInitiative } from './service.ts'

/** What a rollup needs of a visible project: its reported health, whether it is open, its visible tasks. */
export interface ProjectFacts {
  id: ProjectId
  name: string
  health: UpdateHealth | null
  statusCategory: ProjectStatusCategory
  archived: boolean
  tallies: StateTally[]
}

/** Everything visible under some initiatives, read once and shared by every rollup computed from it. */
export interface RollupInputs extends ProgramContribution {
  initiatives: Initiative[]
  links: { initiativeId: InitiativeId; projectId: ProjectId }[]
  projects: Map<string, ProjectFacts>
}

const SEVERITY: Record<UpdateHealth, number> = { onTrack: 0, atRisk: 1, offTrack: 2 }
const OPEN_INITIATIVE = new Set(['planned', 'active'])
const CLOSED_PROJECT = new Set(['completed', 'canceled'])

/**
 * The rollup of one initiative over `inputs` (which hold only what the reader can see):
 * - progress pools the visible tasks of every distinct project linked to it or to one of its
 *   unarchived sub-initiatives, directly or through a linked unarchived program (archived projects
 *   left out), so each task weighs by its estimate (by one when nothing is estimated) as
 *   `summarizeProgress` counts, and a bigger project weighs more;
 * - computed health is the worst reported health among the initiative itself, its open (planned or
 *   active, unarchived) sub-initiatives at any depth, their open (active or paused, unarchived)
 *   programs and those projects still open.
 */
export function rollupOf(
  rootId: InitiativeId,
  inputs: RollupInputs,
): Omit<InitiativeRollup, 'progress' | 'progressSource'> {
  const root = inputs.initiatives.find((i) => i.id === rootId)!
  const { below, programs, projects } = rolledUpOf(rootId, inputs)
  const progress = summarizeProgress(sumTallies(projects.flatMap((p) => p.tallies)))

  const signals: HealthReason[] = []
  const signal = (
    type: HealthReason['type'],
    r: { id: string; name: string; health: UpdateHealth | null },
  ) => {
    if (r.health) signals.push({ type, id: r.id, name: r.name, health: r.health })
  }
  signal('initiative', root)
  for (const i of below) if (OPEN_INITIATIVE.has(i.status)) signal('initiative', i)
  for (const g of programs) if (g.open) signal('program', g)
  for (const p of projects) if (!CLOSED_PROJECT.has(p.statusCategory)) signal('project', p)
  return {
    initiativeId: rootId,
    projects: projects.length,
    subInitiatives: below.length,
    ...progress,
    computedHealth: healthOf(signals),
  }
}

/**
 * Unarchived sub-initiatives at any depth, the unarchived programs they and the root link, and the
 * distinct unarchived projects they hold, directly or through those programs.
 */
function rolledUpOf(
  rootId: InitiativeId,
  inputs: RollupInputs,
): { below: Initiative[]; programs: ProgramFacts[]; projects: ProjectFacts[] } {
  const children = new Map<string, Initiative[]>()
  for (const i of inputs.initiatives) {
    if (i.parentId) children.set(i.parentId, [...(children.get(i.parentId) ?? []), i])
  }
  const below: Initiative[] = []
  const walk = (id: string) => {
    for (const child of children.get(id) ?? []) {
      if (child.archivedAt) continue
      below.push(child)
      walk(child.id)
    }
  }
  walk(rootId)
  const holders = new Set<string>([rootId, ...below.map((i) => i.id)])
  const programs = [
    ...new Set(inputs.programLinks.filter((l) => holders.has(l.initiativeId)).map((l) => l.programId)),
  ]
    .map((id) => inputs.programs.get(id))
    .filter((g): g is ProgramFacts => g !== undefined && !g.archived)
  const projectIds = new Set([
    ...inputs.links.filter((l) => holders.has(l.initiativeId)).map((l) => l.projectId),
    ...programs.flatMap((g) => g.projectIds),
  ])
  const projects = [...projectIds]
    .map((id) => inputs.projects.get(id))
    .filter((p): p is ProjectFacts => p !== undefined && !p.archived)
  return { below, programs, projects }
}

function sumTallies(tallies: StateTally[]): StateTally[] {
  const by = new Map<string, StateTally>()
  for (const t of tallies) {
    const sum = by.get(t.category) ?? { category: t.category, tasks: 0, points: 0 }
    by.set(t.category, { ...sum, tasks: sum.tasks + t.tasks, points: sum.points + t.points })
  }
  return [...by.values()]
}

function healthOf(signals: HealthReason[]): ComputedHealth {
  if (signals.length === 0) return { value: null, summary: 'No status update yet.', reasons: [] }
  const value = signals.reduce<UpdateHealth>(
    (worst, s) => (SEVERITY[s.health] > SEVERITY[worst] ? s.health : worst),
    'onTrack',
  )
  const reasons = signals
    .filter((s) => s.health !== 'onTrack')
    .sort(
      (a, b) =>
        SEVERITY[b.health] - SEVERITY[a.health] ||
        a.type.localeCompare(b.type) ||
        a.name.localeCompare(b.name) ||
        a.id.localeCompare(b.id),
    )
  if (reasons.length === 0) return { value, summary: 'Everything is on track.', reasons }
  const groups = new Map<string, string[]>()
  for (const r of reasons) {
    const key = `${r.type}|${r.health}`
    groups.set(key, [...(groups.get(key) ?? []), r.name])
  }
  const summary = [...groups]
    .map(([key, names]) => {
      const [type, health] = key.split('|') as [string, UpdateHealth]
      const noun = `${type}${names.length === 1 ? '' : 's'}`
      return `${names.length} ${noun} ${health === 'offTrack' ? 'off track' : 'at risk'}: ${names.join(', ')}`
    })
    .join('; ')
  return { value, summary, reasons }
}

/**
 * Reads what the reader can see under the initiatives: links to visible projects, the programs'
 * part (visible programs and their visible projects, from the programs group), and the projects' facts.
 */
async function inputsFor(ctx: OperationContext, initiatives: Initiative[]): Promise<RollupInputs> {
  const orgId = currentOrg(ctx).id
  const scope = await ctx.scope()
  const ids = initiatives.map((i) => i.id)
  const links = await ctx.store.initiatives.projectLinks(orgId, ids, scope)
  const { programLinks, programs } = await programContribution(ctx, orgId, ids, scope)
  const projects = new Map<string, ProjectFacts>()
  const projectIds = new Set([
    ...links.map((l) => l.projectId),
    ...[...programs.values()].flatMap((g) => g.projectIds),
  ])
  for (const projectId of projectIds) {
    const project = await ctx.store.projects.get(orgId, projectId, scope)
    if (!project) continue
    projects.set(projectId, {
      id: project.id,
      name: project.name,
      health: project.health,
      statusCategory: project.statusCategory,
      archived: project.archivedAt !== null,
      tallies: await ctx.store.projects.progress(orgId, project.id, scope),
    })
  }
  return { initiatives, links, programLinks, programs, projects }
}

/** The projects `initiatives.rollup` counts for the caller (visible, unarchived, under unarchived sub-initiatives). */
export async function rolledUpProjectIds(ctx: OperationContext, id: InitiativeId): Promise<ProjectId[]> {
  const root = await requireInitiative(ctx, id)
  const subtree = await ctx.store.initiatives.subtree(root.orgId, root.id, await ctx.scope())
  return rolledUpOf(root.id, await inputsFor(ctx, subtree)).projects.map((p) => p.id)
}

export async function initiativeRollup(ctx: OperationContext, id: InitiativeId): Promise<InitiativeRollup> {
  const root = await requireInitiative(ctx, id)
  const subtree = await ctx.store.initiatives.subtree(root.orgId, root.id, await ctx.scope())
  const rollup = rollupOf(root.id, await inputsFor(ctx, subtree))
  // A manual metric speaks for the initiative; otherwise its projects' tasks do.
  const metric = await ctx.store.initiativeMetrics.get(root.orgId, root.id)
  return metric?.progressSource === 'manual'
    ? { ...rollup, progress: metricProgress(metric), progressSource: 'metric' }
    : { ...rollup, progress: rollup.completedRatio, progressSource: 'projects' }
}

/**
 * The visible hierarchy in one read, depth first: the whole org's, or the subtree of `rootId`. Each
 * node carries its rollup's headline figures, computed as `initiatives.rollup` does.
 */
export async function initiativeTree(
  ctx: OperationContext,
  query: { rootId?: string; archived?: 'exclude' | 'include' },
): Promise<InitiativeTree> {
  const orgId = currentOrg(ctx).id
  const root = query.rootId ? await requireInitiative(ctx, query.rootId as InitiativeId) : null
  let nodes = await ctx.store.initiatives.subtree(orgId, root?.id ?? null, await ctx.scope())
  if (query.archived !== 'include') nodes = nodes.filter((n) => !n.archivedAt)
  const inputs = await inputsFor(ctx, nodes)
  const ids = new Set(nodes.map((n) => n.id))
  const children = new Map<string, typeof nodes>()
  const roots: typeof nodes = []
  for (const n of nodes) {
    if (n.parentId && ids.has(n.parentId) && n.id !== root?.id) {
      children.set(n.parentId, [...(children.get(n.parentId) ?? []), n])
    } else roots.push(n)
  }
  const data: InitiativeTreeNode[] = []
  const visit = (n: (typeof nodes)[number], depth: number) => {
    const rollup = rollupOf(n.id, inputs)
    data.push({
      id: n.id,
      parentId: depth === 0 ? null : n.parentId,
      depth,
      name: n.name,
      status: n.status,
      health: n.health,
      computedHealth: rollup.computedHealth.value,
      completedRatio: rollup.completedRatio,
      projects: rollup.projects,
    })
    for (const child of children.get(n.id) ?? []) visit(child, depth + 1)
  }
  for (const r of roots) visit(r, 0)
  return { data: data.slice(0, INITIATIVE_TREE_MAX) }
}

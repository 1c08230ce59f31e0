import type { ProgramId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Project } from '../projects/schemas.ts'
import { requireProject } from '../projects/service.ts'
import { summarizeProgress } from '../tasks/progress.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import type { ComputedHealth, Program, ProgramRollup } from './schemas.ts'
import { requireProgram } from './service.ts'

const SEVERITY: Record<UpdateHealth, number> = { onTrack: 0, atRisk: 1, offTrack: 2 }
const WORDS: Record<UpdateHealth, string> = { onTrack: 'on track', atRisk: 'at risk', offTrack: 'off track' }
const CLOSED = new Set(['completed', 'canceled'])

/**
 * The program's rollup for the caller. Progress sums the visible tasks of its visible, unarchived
 * projects as one pool (`summarizeProgress`: estimate points when anything is estimated, else task
 * counts), so a big project weighs more than a small one. Computed health is the worst of the
 * program's own latest update and the reported health of each visible open project.
 */
export async function programRollup(ctx: OperationContext, programId: ProgramId): Promise<ProgramRollup> {
  const program = await requireProgram(ctx, programId)
  const scope = await ctx.scope()
  const projects = await rolledUpProjects(ctx, program)
  const open = projects.filter((p) => !CLOSED.has(p.statusCategory))
  const byHealth = { onTrack: 0, atRisk: 0, offTrack: 0, none: 0 }
  for (const p of open) byHealth[p.health ?? 'none'] += 1
  const tallies = await ctx.store.programs.progress(program.orgId, program.id, scope)
  return {
    programId: program.id,
    health: program.health,
    computedHealth: computeHealth(program.health, open),
    projects: { total: projects.length, open: open.length, byHealth },
    ...summarizeProgress(tallies),
  }
}

/** The program's projects its rollup counts: those the caller can view, unarchived. */
export async function rolledUpProjects(ctx: OperationContext, program: Program): Promise<Project[]> {
  const scope = await ctx.scope()
  const rows = await ctx.store.programs.allProjects(program.orgId, program.id)
  const projects: Project[] = []
  for (const row of rows) {
    if (await ctx.store.projects.get(program.orgId, row.projectId, scope)) {
      const project = await requireProject(ctx, row.projectId)
      if (!project.archivedAt) projects.push(project)
    }
  }
  return projects
}

/** Worst signal wins; reasons list each worse-than-on-track group, worst first, by project name. */
export function computeHealth(
  own: UpdateHealth | null,
  projects: readonly Pick<Project, 'name' | 'health'>[],
): ComputedHealth {
  const signals = [own, ...projects.map((p) => p.health)].filter((h): h is UpdateHealth => h !== null)
  if (signals.length === 0) return { value: null, reasons: [] }
  const value = signals.reduce((worst, h) => (SEVERITY[h] > SEVERITY[worst] ? h : worst))
  const reasons: string[] = []
  for (const health of ['offTrack', 'atRisk'] as const) {
    if (own === health) reasons.push(`The program's latest update is ${WORDS[health]}`)
    const names = projects.filter((p) => p.health === health).map((p) => p.name)
    if (names.length > 0) {
      const noun = names.length === 1 ? 'project' : 'projects'
      reasons.push(`${names.length} ${noun} ${WORDS[health]}: ${names.join(', ')}`)
    }
  }
  return { value, reasons }
}

import type {
  ProgramContribution,
  ProgramContributionReader,
  ProgramFacts,
} from '../../initiatives/program-contribution.ts'

/** Every project of a program: programs hold tens of projects, not thousands. */
const ALL_PROJECTS = { sort: 'position', direction: 'asc', after: null, limit: 10_000 } as const

/** A program whose health counts in the rollups of the initiatives it serves. */
const OPEN_PROGRAM = new Set(['active', 'paused'])

/**
 * The programs' part of initiative rollups: each visible program linked to the initiatives, with
 * its visible projects. Initiatives sit below programs and cannot read them, so this group hands
 * them in: it fills the hook `initiatives.programContribution` (see `initiatives/program-contribution.ts`).
 */
export const programContribution: ProgramContributionReader = async (ctx, orgId, initiativeIds, scope) => {
  const programs = new Map<string, ProgramFacts>()
  const programLinks: ProgramContribution['programLinks'] = []
  for (const link of await ctx.store.initiativePrograms.allOf(orgId, initiativeIds)) {
    if (!programs.has(link.programId)) {
      const program = await ctx.store.programs.get(orgId, link.programId, scope)
      if (!program) continue
      const held = await ctx.store.programs.projects(orgId, program.id, ALL_PROJECTS, scope)
      programs.set(program.id, {
        id: program.id,
        name: program.name,
        health: program.health ?? null,
        open: OPEN_PROGRAM.has(program.status),
        archived: program.archivedAt !== null,
        projectIds: held.map((row) => row.projectId),
      })
    }
    programLinks.push({ initiativeId: link.initiativeId, programId: link.programId })
  }
  return { programLinks, programs }
}

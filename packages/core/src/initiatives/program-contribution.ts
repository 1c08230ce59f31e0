import type { InitiativeId, OrgId, ProgramId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { UpdateHealth } from '../updates/schemas.ts'

/** What a rollup needs of a visible program: its reported health, whether it is open, its visible projects. */
export interface ProgramFacts {
  id: ProgramId
  name: string
  health: UpdateHealth | null
  /** Whether its health counts in a rollup (the programs group decides which statuses are open). */
  open: boolean
  archived: boolean
  projectIds: ProjectId[]
}

/** The programs' part of the rollups over some initiatives: the visible programs linked to them. */
export interface ProgramContribution {
  /** Links to programs the reader can view. */
  programLinks: { initiativeId: InitiativeId; programId: ProgramId }[]
  programs: Map<string, ProgramFacts>
}

/**
 * Reads the programs linked to `initiativeIds` as the reader sees them. A program the reader cannot
 * view is left out with its projects, so a rollup never tells which projects a hidden program holds.
 */
export type ProgramContributionReader = (
  ctx: OperationContext,
  orgId: OrgId,
  initiativeIds: InitiativeId[],
  scope: ReadScope,
) => Promise<ProgramContribution>

// Programs sit above initiatives in the groups' layering: this group may not read their storage,
// so the programs group fills this hook.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'initiatives.programContribution': ProgramContributionReader
  }
}

/** The programs' part of the rollups over `initiativeIds`, as the reader sees it. */
export function programContribution(
  ctx: OperationContext,
  orgId: OrgId,
  initiativeIds: InitiativeId[],
  scope: ReadScope,
): Promise<ProgramContribution> {
  return ctx.hook('initiatives.programContribution')(ctx, orgId, initiativeIds, scope)
}

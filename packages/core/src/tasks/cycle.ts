import { currentOrg } from '../kernel/context.ts'
import type { CycleId, OrgId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'

/** What planning a task needs of a cycle: its team and whether it is completed. */
export interface CycleFacts {
  teamId: TeamId
  completed: boolean
}

/** Reads one cycle of the org, whatever the reader's scope (a team's cycles are as visible as the team), or null. */
export type CycleReader = (
  ctx: OperationContext,
  orgId: OrgId,
  cycleId: CycleId,
) => Promise<CycleFacts | null>

// Cycles sit above tasks in the groups' layering: this group may not read their storage, so the
// cycles group fills this hook.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'tasks.cycle': CycleReader
  }
}

/**
 * Checks that a task of `teamId` may be planned in the cycle: the cycle exists, belongs to the
 * team and is not completed. The task's own visibility was checked already, and a team's cycles
 * are exactly as visible as the team.
 */
export async function assertCycleForTask(
  ctx: OperationContext,
  cycleId: CycleId,
  teamId: TeamId,
  pointer = '/body/cycleId',
): Promise<void> {
  const cycle = await ctx.hook('tasks.cycle')(ctx, currentOrg(ctx).id, cycleId)
  if (!cycle || cycle.teamId !== teamId) {
    throw referenceNotFound(
      pointer,
      "The cycle is not a cycle of the task's team.",
      "Not a cycle of the task's team",
    )
  }
  if (cycle.completed) {
    throw new ProblemError('cycle_completed', 'The cycle is completed; plan the task in an open cycle.', {
      errors: [{ pointer, message: 'Cycle is completed' }],
    })
  }
}

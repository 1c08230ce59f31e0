import { currentOrg } from '../kernel/context.ts'
import type { CycleId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { referenceNotFound } from '../kernel/references.ts'

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
  const cycle = await ctx.store.cycles.get(currentOrg(ctx).id, cycleId, UNSCOPED)
  if (!cycle || cycle.teamId !== teamId) {
    throw referenceNotFound(
      pointer,
      "The cycle is not a cycle of the task's team.",
      "Not a cycle of the task's team",
    )
  }
  if (cycle.completedAt) {
    throw new ProblemError('cycle_completed', 'The cycle is completed; plan the task in an open cycle.', {
      errors: [{ pointer, message: 'Cycle is completed' }],
    })
  }
}

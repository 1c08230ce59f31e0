import { UNSCOPED } from '../kernel/read-scope.ts'
import type { CycleReader } from '../tasks/cycle.ts'

/**
 * The cycles' part of planning a task in a cycle (`tasks/cycle.ts`): tasks sit below cycles and
 * cannot read their storage, so this group fills the hook `tasks.cycle`.
 */
export const readTaskCycle: CycleReader = async (ctx, orgId, cycleId) => {
  const cycle = await ctx.store.cycles.get(orgId, cycleId, UNSCOPED)
  return cycle ? { teamId: cycle.teamId, completed: Boolean(cycle.completedAt) } : null
}

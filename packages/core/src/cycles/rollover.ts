import type { CycleId, OrgId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { recordTaskHistory } from '../tasks/history/history.ts'
import { rankAtEnd } from '../tasks/rank/rank.ts'
import { createNextCycle, ensureUpcomingCycles, settingsOf } from './cadence.ts'
import type { Cycle } from './schemas.ts'
import { lockTeamCycles, requireCycle, toCycle } from './service.ts'
import type { CycleRecord } from './storage.ts'

export interface CycleCompletion {
  cycle: Cycle
  /** Where the unfinished tasks went; null when the team has no next cycle and no cadence. */
  nextCycleId: CycleId | null
  rolledOverTaskIds: TaskId[]
}

/** `POST …/cycles/{cycleId}/complete`: completes the cycle now, whatever its dates. */
export async function completeCycle(ctx: OperationContext, cycleId: CycleId): Promise<CycleCompletion> {
  const cycle = await requireCycle(ctx, cycleId)
  if (cycle.completedAt) throw new ProblemError('cycle_completed', 'The cycle is already completed.')
  return rollOver(ctx, cycle)
}

/**
 * Completes a cycle whose end has passed, for the engine's maintenance pass (no actor: its events
 * carry `actorId: null`). Returns null when another pass got there first.
 */
export async function completeEndedCycle(
  ctx: OperationContext,
  orgId: OrgId,
  cycleId: CycleId,
): Promise<CycleCompletion | null> {
  const record = await ctx.store.cycles.get(orgId, cycleId, UNSCOPED)
  if (!record) return null
  await lockTeamCycles(ctx, orgId, record.teamId)
  const fresh = await ctx.store.cycles.get(orgId, cycleId, UNSCOPED)
  if (!fresh || fresh.completedAt || fresh.endsAt > ctx.now) return null
  return rollOver(ctx, fresh)
}

/**
 * Marks the cycle completed and moves its unfinished tasks (state category neither completed nor
 * canceled) to the team's next open cycle, creating that by the cadence when there is none. Each
 * move is a `task.updated` event and a task-history entry for `cycleId`.
 */
export async function rollOver(ctx: OperationContext, cycle: CycleRecord): Promise<CycleCompletion> {
  const { orgId, teamId } = cycle
  await lockTeamCycles(ctx, orgId, teamId)
  await ctx.store.cycles.update(orgId, cycle.id, { completedAt: ctx.now, updatedAt: ctx.now })
  const completed = toCycle({ ...cycle, completedAt: ctx.now, updatedAt: ctx.now }, ctx.now)

  const open = await ctx.store.cycles.openAfter(orgId, teamId, ctx.now)
  let next = open.find((c) => c.id !== cycle.id && c.startsAt >= cycle.startsAt) ?? null
  const settings = await settingsOf(ctx, orgId, teamId)
  if (!next && settings.enabled) next = await createNextCycle(ctx, orgId, teamId, settings)

  const moved = next ? await ctx.store.cycles.unfinishedTasks(orgId, cycle.id) : []
  // They go last in the next cycle, in the order they held in this one.
  const ranks = await ctx.store.taskRanks.ranksOf(orgId, 'cycle', moved)
  const byRank = [...moved].sort((a, b) => ((ranks.get(a) ?? '') < (ranks.get(b) ?? '') ? -1 : 1))
  for (const taskId of byRank) {
    const cycleRank = await rankAtEnd(ctx, orgId, { kind: 'cycle', id: next!.id })
    await ctx.store.tasks.update(orgId, taskId, { cycleId: next!.id, cycleRank, updatedAt: ctx.now })
    const task = (await ctx.store.tasks.get(orgId, taskId, UNSCOPED))!
    const changes = { cycleId: { before: cycle.id, after: next!.id } }
    await recordTaskHistory(ctx, task, [{ field: 'cycleId', ...changes.cycleId }])
    ctx.emit(
      { kind: 'task.updated', resourceType: 'task', resourceId: taskId, teamId, data: { task, changes } },
      orgId,
    )
  }
  ctx.emit(
    {
      kind: 'cycle.completed',
      resourceType: 'cycle',
      resourceId: cycle.id,
      teamId,
      data: { cycle: completed, nextCycleId: next?.id ?? null, rolledOverTaskIds: moved },
    },
    orgId,
  )
  await ensureUpcomingCycles(ctx, orgId, teamId)
  return { cycle: completed, nextCycleId: next?.id ?? null, rolledOverTaskIds: moved }
}

import { shiftDateWithin } from '../../kernel/calendar.ts'
import type { CycleId, OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { activeMemberships, callerId } from '../profile/profile.ts'
import { SUGGESTION_REASONS, type SuggestionReason, type VisiblePlanTask } from './schemas.ts'
import { shownTask, workspaces } from './view.ts'

const OPEN: StateCategory[] = ['triage', 'backlog', 'unstarted', 'started']
/** Tasks of one workspace read for suggestions: the assigned open work of anyone's normal week. */
const SCAN = 200

const RANK = Object.fromEntries(SUGGESTION_REASONS.map((r, i) => [r, i])) as Record<SuggestionReason, number>

/**
 * Open tasks assigned to the person, in each workspace of which they are an active member, read
 * with their read scope there (one set of queries per membership, merged here; no query spans two
 * workspaces). A workspace that fails is named in `partial`; the others are answered.
 */
export async function planSuggestions(
  ctx: OperationContext,
  date: string,
  limit: number,
): Promise<{
  date: string
  data: Array<{ reason: SuggestionReason; task: VisiblePlanTask }>
  partial: Array<{ orgId: OrgId; code: string }>
}> {
  const planned = new Set(
    (await ctx.store.planItems.day(callerId(ctx), date))
      .filter((i) => i.kind === 'task')
      .map((i) => `${i.orgId}/${i.taskId}`),
  )
  const found: Array<{ reason: SuggestionReason; task: VisiblePlanTask }> = []
  const partial: Array<{ orgId: OrgId; code: string }> = []
  const ws = workspaces(ctx)
  for (const membership of await activeMemberships(ctx)) {
    try {
      const inOrg = await ws(membership.orgId)
      if (!inOrg) continue
      found.push(...(await suggestIn(ctx, inOrg, membership.orgId, membership.memberId, date, planned)))
    } catch (error) {
      partial.push({
        orgId: membership.orgId,
        code: error instanceof ProblemError ? error.code : 'internal_error',
      })
    }
  }
  found.sort(
    (a, b) =>
      RANK[a.reason] - RANK[b.reason] ||
      (a.task.dueDate ?? '9999').localeCompare(b.task.dueDate ?? '9999') ||
      a.task.orgName.localeCompare(b.task.orgName) ||
      a.task.orgId.localeCompare(b.task.orgId) ||
      a.task.key.localeCompare(b.task.key, 'en', { numeric: true }),
  )
  return { date, data: found.slice(0, limit), partial }
}

async function suggestIn(
  ctx: OperationContext,
  inOrg: { ctx: OperationContext; orgName: string },
  orgId: OrgId,
  memberId: string,
  date: string,
  planned: Set<string>,
): Promise<Array<{ reason: SuggestionReason; task: VisiblePlanTask }>> {
  const scope = await inOrg.ctx.scope()
  const page = { sort: 'dueDate' as const, direction: 'asc' as const, after: null, limit: SCAN }
  const mine = (
    await ctx.store.tasks.list(
      orgId,
      { assigneeId: memberId as never, stateCategory: OPEN, archived: false },
      page,
      scope,
    )
  ).filter((t) => !planned.has(`${orgId}/${t.id}`))
  if (mine.length === 0) return []
  // Newly unblocked: an open blocker-free task of mine that a task completed in the past week blocked.
  const weekAgo = `${shiftDateWithin(date, -7)}T00:00:00.000Z`
  const recent = await ctx.store.tasks.list(
    orgId,
    { stateCategory: ['completed'], archived: null, updatedSince: weekAgo },
    { ...page, sort: 'updatedAt', direction: 'desc' },
    scope,
  )
  const freed = new Set(
    (
      await ctx.store.taskDependencies.blockedBy(
        orgId,
        recent.map((t) => t.id),
      )
    ).map((e) => e.blockedId),
  )
  const stillBlocked = freed.size
    ? new Set(
        (
          await ctx.store.tasks.list(
            orgId,
            { assigneeId: memberId as never, stateCategory: OPEN, archived: false, blocked: true },
            page,
            scope,
          )
        ).map((t) => t.id),
      )
    : new Set<string>()
  // Cycles running on the day.
  const cycles = new Map<CycleId, boolean>()
  const dayStart = `${date}T00:00:00.000Z`
  const dayEnd = `${shiftDateWithin(date, 1)}T00:00:00.000Z`
  for (const cycleId of new Set(mine.flatMap((t) => (t.cycleId ? [t.cycleId] : [])))) {
    const cycle = await ctx.store.cycles.get(orgId, cycleId, scope)
    cycles.set(cycleId, !!cycle && cycle.startsAt < dayEnd && cycle.endsAt > dayStart)
  }
  const soon = shiftDateWithin(date, 3)
  const out: Array<{ reason: SuggestionReason; task: VisiblePlanTask }> = []
  for (const task of mine) {
    const reason: SuggestionReason | null =
      task.dueDate && task.dueDate < date
        ? 'overdue'
        : task.dueDate === date
          ? 'dueToday'
          : freed.has(task.id) && !stillBlocked.has(task.id)
            ? 'unblocked'
            : task.cycleId && cycles.get(task.cycleId)
              ? 'currentCycle'
              : task.dueDate && task.dueDate <= soon
                ? 'dueSoon'
                : null
    if (reason) out.push({ reason, task: shownTask(task, inOrg.orgName) })
  }
  return out
}

import { changesOf } from '../../kernel/history-entry.ts'
import type { OrgId, StateId, TaskId, TeamId } from '../../kernel/ids.ts'
import { lifecycleStamps } from '../../kernel/lifecycle.ts'
import type { OperationContext, SystemRunner } from '../../kernel/operation.ts'
import { UNSCOPED } from '../../kernel/read-scope.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { teamSettingsOf } from '../../teams/settings.ts'
import './storage.ts'
import { actingAs, recordTaskHistory } from '../history/history.ts'
import { rankAtEnd } from '../rank/rank.ts'
import type { Task } from '../schemas.ts'

/**
 * The categories `autoCloseDays` closes: work nobody has started. A started task is someone's work
 * in progress, and its silence is for a person to judge, not the clock.
 */
export const AUTO_CLOSE_CATEGORIES: readonly StateCategory[] = ['triage', 'backlog', 'unstarted']

/** Writes the system's comment on a task auto-close closed, in the pass's transaction. */
export type ExplainClose = (
  ctx: OperationContext,
  task: { id: TaskId; orgId: OrgId; teamId: TeamId },
  body: string,
) => Promise<unknown>

/** What the pass says it did, in `task.updated` (auto-close) and `task.archived` (auto-archive) data. */
export type TaskAutomation = 'autoClose' | 'autoArchive'

export interface TaskAutomationPass {
  /** Tasks moved to their team's first canceled state because nothing changed them for `autoCloseDays`. */
  closed: number
  /** Completed or canceled tasks archived because nothing changed them for `autoArchiveDays`. */
  archived: number
  /** Batches whose transaction failed; the next pass tries them again. */
  failed: number
}

/** Tasks changed per transaction: a team with a long backlog is worked through in short transactions. */
export const AUTOMATION_BATCH = 100
/** Batches per team, kind and pass: a backlog larger than this is finished by the next passes. */
const BATCHES_PER_PASS = 100

const DAY_MS = 86_400_000

/**
 * The teams' auto-close and auto-archive (docs/triage.md). For each team whose settings ask for it,
 * in batches of `batch` tasks, one transaction each: open tasks unchanged for `autoCloseDays` move to
 * the team's first canceled state, then tasks completed or canceled, and unchanged, for
 * `autoArchiveDays` are archived. Each batch takes the team's lock and reads the settings and its
 * candidates again inside it, so any number of engines running the pass at once apply each change
 * once, and a second pass finds nothing left to do.
 */
export async function automateTasks(
  sweep: {
    teams(): Promise<Array<{ orgId: OrgId; teamId: TeamId }>>
    /** Posts the system's comment on a task it closed (the comments group, above this one, writes it). */
    explain: ExplainClose
  },
  run: SystemRunner,
  options: { batch?: number; onError?: (error: unknown) => void } = {},
): Promise<TaskAutomationPass> {
  const batch = options.batch ?? AUTOMATION_BATCH
  const result: TaskAutomationPass = { closed: 0, archived: 0, failed: 0 }
  const drain = async (orgId: OrgId, step: (ctx: OperationContext) => Promise<number>) => {
    let done = 0
    for (let i = 0; i < BATCHES_PER_PASS; i++) {
      let count: number | null
      try {
        count = await run(orgId, step)
      } catch (error) {
        result.failed++
        options.onError?.(error)
        return done
      }
      done += count ?? 0
      if (count === null || count < batch) return done
    }
    return done
  }
  for (const { orgId, teamId } of await sweep.teams()) {
    result.closed += await drain(orgId, (ctx) =>
      closeStaleTasks(ctx, { orgId, teamId, batch }, sweep.explain),
    )
    result.archived += await drain(orgId, (ctx) => archiveClosedTasks(ctx, orgId, teamId, batch))
  }
  return result
}

/** The team's settings, read under its lock; null when the team is archived or gone. */
async function lockedSettings(ctx: OperationContext, orgId: OrgId, teamId: TeamId) {
  await ctx.store.locks.acquire(`task-automation:${orgId}:${teamId}`)
  const team = await ctx.store.teams.get(orgId, teamId)
  if (!team || team.archivedAt) return null
  return teamSettingsOf(ctx.store, orgId, teamId)
}

const daysBefore = (now: string, days: number) => new Date(Date.parse(now) - days * DAY_MS).toISOString()

/**
 * One batch of auto-close: up to `limit` stale open tasks to the team's first active canceled state
 * (none: nothing moves). Answers how many candidates it read, so the caller knows whether more wait.
 */
async function closeStaleTasks(
  ctx: OperationContext,
  { orgId, teamId, batch: limit }: { orgId: OrgId; teamId: TeamId; batch: number },
  explain: ExplainClose,
): Promise<number> {
  const settings = await lockedSettings(ctx, orgId, teamId)
  if (!settings?.autoCloseDays) return 0
  const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
  const canceled = states.find((s) => s.category === 'canceled')
  if (!canceled) return 0
  const cutoff = daysBefore(ctx.now, settings.autoCloseDays)
  const ids = await ctx.store.taskAutomation.stale(orgId, teamId, {
    categories: AUTO_CLOSE_CATEGORIES,
    cutoff,
    now: ctx.now,
    limit,
  })
  const why = closeReason(settings.autoCloseDays, canceled.name)
  const acting = actingAs(ctx, 'autoClose')
  for (const id of ids) {
    const task = await closeTask(ctx, orgId, id, canceled.id as StateId, cutoff)
    if (task) await explain(acting, task, why)
  }
  return ids.length
}

/** The comment a closed task gets: what closed it, and why. */
const closeReason = (days: number, state: string) =>
  `Closed automatically: nothing changed on this task and nobody commented on it for ${days} ${days === 1 ? 'day' : 'days'}, ` +
  `so the team's auto-close moved it to *${state}*. Reopen it if it still matters.`

/** Closes the task if it is still stale; answers it as it was when it was, or null. */
async function closeTask(
  ctx: OperationContext,
  orgId: OrgId,
  taskId: TaskId,
  stateId: StateId,
  cutoff: string,
): Promise<Task | null> {
  const task = await ctx.store.tasks.get(orgId, taskId, UNSCOPED)
  // Changed since the candidates were read (a person's write that committed meanwhile): not stale.
  if (!task || task.archivedAt || task.updatedAt > cutoff) return null
  if (!AUTO_CLOSE_CATEGORIES.includes(task.stateCategory)) return null
  const stamps = lifecycleStamps(task.stateCategory, 'canceled', task, ctx.now)
  // Last in the canceled column, as any task arriving in it.
  const boardRank = await rankAtEnd(ctx, orgId, { kind: 'board', id: stateId })
  await ctx.store.tasks.update(orgId, task.id, { stateId, boardRank, ...stamps, updatedAt: ctx.now })
  const next = (await ctx.store.tasks.get(orgId, task.id, UNSCOPED))!
  // The history names the setting that acted (`automation`), the actor being the system (null).
  await recordTaskHistory(actingAs(ctx, 'autoClose'), task, [
    { field: 'stateId', before: task.stateId, after: stateId },
  ])
  ctx.emit(
    {
      kind: 'task.updated',
      resourceType: 'task',
      resourceId: task.id,
      teamId: task.teamId,
      data: {
        task: next,
        changes: changesOf(task, { stateId, ...stamps }),
        automation: 'autoClose' satisfies TaskAutomation,
      },
    },
    orgId,
  )
  return task
}

/** One batch of auto-archive: up to `limit` tasks closed, and unchanged, for `autoArchiveDays`. */
async function archiveClosedTasks(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  limit: number,
): Promise<number> {
  const settings = await lockedSettings(ctx, orgId, teamId)
  if (!settings?.autoArchiveDays) return 0
  const cutoff = daysBefore(ctx.now, settings.autoArchiveDays)
  const ids = await ctx.store.taskAutomation.closed(orgId, teamId, { cutoff, limit })
  for (const id of ids) await archiveTask(ctx, orgId, id, cutoff)
  return ids.length
}

async function archiveTask(ctx: OperationContext, orgId: OrgId, taskId: TaskId, cutoff: string) {
  const task = await ctx.store.tasks.get(orgId, taskId, UNSCOPED)
  const closedAt = task?.completedAt ?? task?.canceledAt
  // Reopened, changed or archived since the candidates were read.
  if (!task || task.archivedAt || !closedAt || closedAt > cutoff || task.updatedAt > cutoff) return
  // An archived task holds no unarchived subtask (tasks.archive asks what to do with them).
  const children = await ctx.store.tasks.childrenOf(orgId, [task.id])
  if (children.some((c) => !c.archived)) return
  await ctx.store.tasks.update(orgId, task.id, { archivedAt: ctx.now, updatedAt: ctx.now })
  const next = (await ctx.store.tasks.get(orgId, task.id, UNSCOPED))!
  await recordTaskHistory(actingAs(ctx, 'autoArchive'), task, [
    { field: 'archivedAt', before: null, after: next.archivedAt },
  ])
  ctx.emit(
    {
      kind: 'task.archived',
      resourceType: 'task',
      resourceId: task.id,
      teamId: task.teamId,
      data: { task: next, automation: 'autoArchive' satisfies TaskAutomation },
    },
    orgId,
  )
}

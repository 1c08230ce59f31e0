import type { OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext, SystemRunner } from '../kernel/operation.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Storage } from '../kernel/storage.ts'
import { DUE_DATE_PASSED } from './triggers.ts'

const DAY_MS = 86_400_000
/** Tasks marked per transaction. */
export const DUE_BATCH = 100
/** Batches per team and pass: a larger backlog is finished by the next passes. */
const BATCHES_PER_PASS = 20
/** Teams read per pass. */
const TEAMS_PER_PASS = 1_000

/** When a due date passes: the end of that day in UTC, as the `overdue` reminders count it. */
export const duePassedAt = (dueDate: string) => new Date(Date.parse(dueDate) + DAY_MS).toISOString()

/**
 * The earliest due date whose passing is not the past for a rule created at `since`: a due date
 * that passed before the team's first `dueDatePassed` rule existed writes no event.
 */
const firstDueAfter = (since: string) =>
  new Date(Math.ceil(Date.parse(since) / DAY_MS) * DAY_MS - DAY_MS).toISOString().slice(0, 10)

/**
 * The due-date half of the rule engine: a time-based trigger has no event to follow, so this pass
 * writes one. For each team with an enabled `dueDatePassed` rule, the open, unarchived tasks whose
 * due date passed by the engine's clock get a `task.due_date_passed` event, once per task and due
 * date: a mark (`rule_due_marks`, keyed by task and due date) is written with the event, under the
 * team's lock, so several engines write each event once, an unchanged due date never fires again
 * and a moved one fires again when it passes. The rules then run on the event from the log, as on
 * any other (run.ts). Answers how many events it wrote and how many batches failed.
 */
export async function passDueDates(
  storage: Storage,
  run: SystemRunner,
  onError?: (error: unknown) => void,
): Promise<{ written: number; failed: number }> {
  const out = { written: 0, failed: 0 }
  for (const team of await storage.read((s) => s.ruleEngine.dueWatchers(TEAMS_PER_PASS))) {
    for (let i = 0; i < BATCHES_PER_PASS; i++) {
      let count: number | null
      try {
        count = await run(team.orgId, (ctx) => dueStep(ctx, team, DUE_BATCH))
      } catch (error) {
        out.failed++
        onError?.(error)
        break
      }
      out.written += count ?? 0
      if (!count || count < DUE_BATCH) break
    }
  }
  return out
}

async function dueStep(
  ctx: OperationContext,
  team: { orgId: OrgId; teamId: TeamId; since: string },
  limit: number,
): Promise<number> {
  const { orgId, teamId } = team
  await ctx.store.locks.acquire(`rule-due:${orgId}:${teamId}`)
  const passed = await ctx.store.ruleEngine.passedDue(orgId, teamId, {
    from: firstDueAfter(team.since),
    before: ctx.now.slice(0, 10),
    limit,
  })
  let written = 0
  for (const { taskId, dueDate } of passed) {
    if (!(await ctx.store.ruleEngine.markDue(orgId, taskId, dueDate))) continue
    const task = await ctx.store.tasks.get(orgId, taskId as TaskId, UNSCOPED)
    if (!task) continue
    ctx.emit(
      {
        kind: DUE_DATE_PASSED,
        resourceType: 'task',
        resourceId: task.id,
        teamId: task.teamId,
        data: { task, dueDate, passedAt: duePassedAt(dueDate) },
      },
      orgId,
    )
    written++
  }
  return written
}

import type { MemberId, OrgId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Actor } from '../kernel/permissions.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { callerId } from '../me/profile/profile.ts'
import { dayIn } from './calendar.ts'
import { writeEntry } from './entries.ts'
import { ENTRY_MINUTES_MAX, type TimeEntry, type Timer, type TimerStopped } from './schemas.ts'
import type { TimerRecord } from './storage.ts'

const MINUTE_MS = 60_000

export interface TaskRef {
  orgId: OrgId
  id?: TaskId
  key?: string
}

/** The person as an actor in a workspace, or null where they are no active member. */
async function personIn(ctx: OperationContext, orgId: OrgId): Promise<OperationContext | null> {
  const org = await ctx.store.orgs.get(orgId)
  const member = org ? await ctx.store.members.findByUser(orgId, callerId(ctx)) : null
  if (!org || !member || member.status !== 'active') return null
  const actor: Actor = {
    id: member.id,
    kind: 'person',
    orgId,
    role: member.role,
    userId: member.userId,
    name: member.name,
  }
  return ctx.within(org, actor)
}

const elapsed = (timer: TimerRecord, now: string) =>
  Math.max(0, Math.floor((Date.parse(now) - Date.parse(timer.startedAt)) / MINUTE_MS))

const shown = (timer: TimerRecord, now: string): Timer => ({
  orgId: timer.orgId,
  taskId: timer.taskId,
  note: timer.note,
  startedAt: timer.startedAt,
  elapsedMinutes: elapsed(timer, now),
})

export async function getTimer(ctx: OperationContext): Promise<{ timer: Timer | null }> {
  const timer = await ctx.store.timers.get(callerId(ctx))
  return { timer: timer ? shown(timer, ctx.now) : null }
}

/** Stops the person's timer: an entry in its workspace when they may still log time on the task. */
async function stopRunning(
  ctx: OperationContext,
  timer: TimerRecord,
  note?: string | null,
): Promise<TimerStopped> {
  await ctx.store.timers.delete(timer.userId)
  const minutes = Math.min(ENTRY_MINUTES_MAX, elapsed(timer, ctx.now))
  const inOrg = await personIn(ctx, timer.orgId)
  const stopped = (entry: TimeEntry | null, discarded: TimerStopped['discarded']): TimerStopped => {
    // Filed for the person only: nobody else learns of someone's timer.
    ;(inOrg ?? ctx).emit(
      {
        kind: 'timer.stopped',
        resourceType: 'timer',
        resourceId: timer.taskId,
        recipientId: timer.memberId,
        data: { timer: shown(timer, ctx.now), entryId: entry?.id ?? null, discarded },
      },
      timer.orgId,
    )
    return { entry, discarded }
  }
  if (!inOrg || inOrg.actor!.id !== timer.memberId) return stopped(null, 'membership_ended')
  if (minutes < 1) return stopped(null, 'too_short')
  const task = await inOrg.store.tasks.get(timer.orgId, timer.taskId, await inOrg.scope())
  if (!task || inOrg.org!.archivedAt) return stopped(null, 'no_access')
  try {
    await inOrg.require('contribute', { type: 'task', id: task.id })
  } catch (error) {
    if (error instanceof ProblemError) return stopped(null, 'no_access')
    throw error
  }
  const profile = await ctx.store.users.getProfile(timer.userId)
  const entry = await writeEntry(inOrg, task, {
    minutes,
    date: dayIn(timer.startedAt, profile?.timeZone ?? null),
    note: note === undefined ? timer.note : note,
    source: 'timer',
    startedAt: timer.startedAt,
  })
  return stopped(entry, null)
}

/** Starts timing a task (stopping any running timer first); the caller must be able to log time on it. */
export async function startTimer(
  ctx: OperationContext,
  input: { task: TaskRef; note?: string | null },
): Promise<{ timer: Timer; stopped: TimeEntry | null }> {
  const userId = callerId(ctx)
  const ref = input.task
  if ((ref.id === undefined) === (ref.key === undefined)) {
    throw new ProblemError('rule_violated', 'Name the task by `id` or by `key`, not both.', {
      errors: [{ pointer: '/body/task', message: 'Exactly one of id and key' }],
    })
  }
  const missing = () =>
    referenceNotFound(
      '/body/task',
      'No task with this id or key that you can view.',
      'Not a task you can view',
    )
  const inOrg = await personIn(ctx, ref.orgId)
  if (!inOrg) throw missing()
  const taskId = ref.id ?? (await ctx.store.taskKeys.resolve(ref.orgId, ref.key!))
  const task = taskId ? await ctx.store.tasks.get(ref.orgId, taskId, await inOrg.scope()) : null
  if (!task) throw missing()
  if (inOrg.org!.archivedAt) throw new ProblemError('archived', 'The workspace is archived.')
  await inOrg.require('contribute', { type: 'task', id: task.id })

  await ctx.store.locks.acquire(`timer:${userId}`)
  const running = await ctx.store.timers.get(userId)
  const stopped = running ? (await stopRunning(ctx, running)).entry : null
  const timer: TimerRecord = {
    userId,
    orgId: task.orgId,
    memberId: inOrg.actor!.id as MemberId,
    taskId: task.id,
    note: input.note ?? null,
    startedAt: ctx.now,
  }
  await ctx.store.timers.put(timer)
  inOrg.emit({
    kind: 'timer.started',
    resourceType: 'timer',
    resourceId: task.id,
    teamId: task.teamId,
    recipientId: timer.memberId,
    data: { timer: shown(timer, ctx.now) },
  })
  return { timer: shown(timer, ctx.now), stopped }
}

export async function stopTimer(
  ctx: OperationContext,
  input: { note?: string | null },
): Promise<TimerStopped> {
  const userId = callerId(ctx)
  await ctx.store.locks.acquire(`timer:${userId}`)
  const running = await ctx.store.timers.get(userId)
  if (!running) throw new ProblemError('conflict', 'No timer is running.')
  return stopRunning(ctx, running, input.note)
}

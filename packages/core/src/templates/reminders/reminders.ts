import { type MemberId, newId, type ReminderId, type TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { requireTask } from '../../tasks/require-task.ts'
import type { Task } from '../../tasks/schemas.ts'
import type { Reminder } from '../schemas.ts'

/** Most pending reminders one person keeps on one task. */
export const REMINDERS_PER_TASK_MAX = 20

/** Reminders are a person's own: an agent has no inbox to deliver them to. */
function me(ctx: OperationContext): MemberId {
  const actor = ctx.actor!
  if (actor.kind !== 'person') {
    throw new ProblemError(
      'capability_required',
      'Reminders are delivered to people; an agent cannot set one.',
    )
  }
  return actor.id as MemberId
}

export async function listReminders(
  ctx: OperationContext,
  taskId: TaskId,
  query: { cursor?: string; limit?: number },
): Promise<Page<Reminder>> {
  const memberId = me(ctx)
  const task = await requireTask(ctx, taskId)
  return readPage(ctx, {
    scope: ['tasks.reminders', task.id, memberId],
    query,
    sort: 'remindAt',
    direction: 'asc',
    keyOf: (r: Reminder) => r.remindAt,
    fetch: (page) => ctx.store.reminders.list(task.orgId, task.id, memberId, page),
  })
}

export async function createReminder(
  ctx: OperationContext,
  taskId: TaskId,
  input: { remindAt: string; note?: string | null },
): Promise<Reminder> {
  const memberId = me(ctx)
  const task = await requireTask(ctx, taskId)
  const remindAt = new Date(input.remindAt).toISOString()
  if (remindAt <= ctx.now) {
    throw new ProblemError('rule_violated', '`remindAt` must be in the future.', {
      errors: [{ pointer: '/body/remindAt', message: 'Not in the future' }],
    })
  }
  const pending = await ctx.store.reminders.list(task.orgId, task.id, memberId, {
    sort: 'remindAt',
    direction: 'asc',
    after: null,
    limit: REMINDERS_PER_TASK_MAX,
  })
  if (pending.filter((r) => !r.deliveredAt).length >= REMINDERS_PER_TASK_MAX) {
    throw new ProblemError(
      'conflict',
      `A task keeps at most ${REMINDERS_PER_TASK_MAX} of your pending reminders.`,
    )
  }
  const reminder: Reminder = {
    id: newId('ReminderId'),
    taskId: task.id,
    memberId,
    remindAt,
    note: input.note ?? null,
    deliveredAt: null,
    createdAt: ctx.now,
  }
  await ctx.store.reminders.insert({ ...reminder, orgId: task.orgId })
  emitReminder(ctx, 'reminder.created', task, reminder)
  return reminder
}

/** Clears one of the caller's reminders; anyone else's is a 404, as a missing one. */
export async function deleteReminder(ctx: OperationContext, taskId: TaskId, id: ReminderId): Promise<void> {
  const memberId = me(ctx)
  const task = await requireTask(ctx, taskId)
  const reminder = await ctx.store.reminders.get(task.orgId, id)
  if (!reminder || reminder.taskId !== task.id || reminder.memberId !== memberId) throw notFound('Reminder')
  await ctx.store.reminders.delete(task.orgId, id)
  const { orgId: _orgId, ...rest } = reminder
  emitReminder(ctx, 'reminder.deleted', task, rest)
}

/** Filed for its person only, as notifications are: nobody else learns of someone's reminders. */
function emitReminder(ctx: OperationContext, kind: `reminder.${string}`, task: Task, reminder: Reminder) {
  ctx.emit({
    kind,
    resourceType: 'reminder',
    resourceId: reminder.id,
    teamId: task.teamId,
    recipientId: reminder.memberId,
    data: { reminder },
  })
}

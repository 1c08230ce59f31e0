import { calendarDate, datesFrom, daysBetween } from '../../kernel/calendar.ts'
import { newId, type OrgId, type PlanItemId, type TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../../kernel/ordering.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { referenceNotFound } from '../../kernel/references.ts'
import type { Task } from '../../tasks/schemas.ts'
import { awayOn } from '../../users/away.ts'
import { callerId } from '../profile/profile.ts'
import type { PlanItem, PlanSource } from './schemas.ts'
import { PLAN_DAY_MAX, PLAN_RANGE_DAYS, type PlanItemPatch, type PlanItemRecord } from './storage.ts'
import {
  type OpenWorkspace,
  present,
  presentAll,
  requireItem,
  shownTask,
  type TaskView,
  toItem,
  viewTask,
  type Workspaces,
  workspaces,
} from './view.ts'

/** Writes the positions of `ordered` as 0..n-1, only where they change. */
async function renumber(
  ctx: OperationContext,
  ordered: readonly PlanItemRecord[],
): Promise<PlanItemRecord[]> {
  const userId = callerId(ctx)
  const out: PlanItemRecord[] = []
  for (const [position, item] of ordered.entries()) {
    if (item.position !== position) await ctx.store.planItems.update(userId, item.id, { position })
    out.push({ ...item, position })
  }
  return out
}

function checkTimeBlock(block: { start: string; end: string } | null | undefined): void {
  if (block && block.start >= block.end) {
    throw new ProblemError('rule_violated', 'The time block ends before it starts.', {
      errors: [{ pointer: '/body/timeBlock/end', message: 'Must be after start' }],
    })
  }
}

function checkRoom(items: readonly unknown[]): void {
  if (items.length >= PLAN_DAY_MAX)
    throw new ProblemError('conflict', `A day holds at most ${PLAN_DAY_MAX} items; remove one first.`)
}

function refuseTwice(
  items: readonly PlanItemRecord[],
  orgId: OrgId,
  taskId: TaskId,
  except?: PlanItemId,
): void {
  if (items.some((i) => i.orgId === orgId && i.taskId === taskId && i.id !== except))
    throw new ProblemError('conflict', 'The task is already on that day’s plan.')
}

/** The day's items; `opened`: the person's contexts the caller already holds (`workspaces`). */
export async function getPlanDay(
  ctx: OperationContext,
  date: string,
  opened?: ReadonlyMap<OrgId, OpenWorkspace>,
): Promise<{ date: string; items: PlanItem[] }> {
  const ws = workspaces(ctx, opened)
  const items = await ctx.store.planItems.day(callerId(ctx), date)
  return { date, items: await presentAll(ctx, ws, items) }
}

/** Every day from `from` to `to`, both included, each with its items in order (empty days too). */
export async function listPlanDays(
  ctx: OperationContext,
  from: string,
  to: string,
): Promise<{ from: string; to: string; days: Array<{ date: string; items: PlanItem[] }> }> {
  calendarDate(from, '/query/from')
  calendarDate(to, '/query/to')
  if (to < from) {
    throw new ProblemError('rule_violated', 'The range ends before it starts.', {
      errors: [{ pointer: '/query/to', message: 'Must be on or after from' }],
    })
  }
  if (daysBetween(from, to) >= PLAN_RANGE_DAYS) {
    throw new ProblemError('rule_violated', `A range covers at most ${PLAN_RANGE_DAYS} days.`, {
      errors: [{ pointer: '/query/to', message: `At most ${PLAN_RANGE_DAYS - 1} days after from` }],
    })
  }
  const ws = workspaces(ctx)
  const items = await ctx.store.planItems.range(callerId(ctx), from, to)
  const days: Array<{ date: string; items: PlanItem[] }> = []
  for (const date of datesFrom(from, to)) days.push({ date, items: [] })
  const byDate = new Map(days.map((d) => [d.date, d.items]))
  const presented = await presentAll(ctx, ws, items)
  for (const [i, item] of items.entries()) byDate.get(item.date)?.push(presented[i]!)
  return { from, to, days }
}

export async function getPlanItem(ctx: OperationContext, id: PlanItemId): Promise<PlanItem> {
  return present(ctx, workspaces(ctx), await requireItem(ctx, id))
}

export interface NewPlanItem {
  task?: { orgId: OrgId; id?: TaskId; key?: string }
  text?: string
  position?: number
  timeBlock?: { start: string; end: string } | null
  estimateMinutes?: number | null
  source?: PlanSource
}

/** The task a new item names, as the caller may view it; anything else is a 422 that reveals nothing. */
async function resolveTask(
  ctx: OperationContext,
  ws: Workspaces,
  ref: NonNullable<NewPlanItem['task']>,
): Promise<TaskView & { task: Task }> {
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
  const inOrg = await ws(ref.orgId)
  if (!inOrg) throw missing()
  const taskId = ref.id ?? (await ctx.store.taskKeys.resolve(ref.orgId, ref.key!))
  const task = taskId ? await ctx.store.tasks.get(ref.orgId, taskId, await inOrg.ctx.scope()) : null
  if (!task) throw missing()
  return { task, shown: shownTask(task, inOrg.orgName) }
}

export async function addPlanItem(ctx: OperationContext, date: string, body: NewPlanItem): Promise<PlanItem> {
  const userId = callerId(ctx)
  if ((body.task === undefined) === (body.text === undefined)) {
    throw new ProblemError('rule_violated', 'An item is either a `task` or a `text`.', {
      errors: [{ pointer: '/body', message: 'Exactly one of task and text' }],
    })
  }
  checkTimeBlock(body.timeBlock)
  const ws = workspaces(ctx)
  const view = body.task ? await resolveTask(ctx, ws, body.task) : null
  const day = await ctx.store.planItems.day(userId, date)
  checkRoom(day)
  if (view) refuseTwice(day, view.task.orgId, view.task.id)
  const position = Math.min(body.position ?? day.length, day.length)
  const record: PlanItemRecord = {
    id: newId('PlanItemId'),
    userId,
    date,
    position,
    kind: view ? 'task' : 'text',
    orgId: view ? view.task.orgId : null,
    taskId: view ? view.task.id : null,
    text: body.text ?? null,
    timeStart: body.timeBlock?.start ?? null,
    timeEnd: body.timeBlock?.end ?? null,
    estimateMinutes: body.estimateMinutes ?? null,
    source: body.source ?? 'manual',
    carriedFrom: null,
    carryCount: 0,
    doneAt: null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.planItems.insert(record)
  const ordered = [...day]
  ordered.splice(position, 0, record)
  await renumber(ctx, ordered)
  return toItem({ ...record, position }, view)
}

export interface PlanItemChange {
  text?: string
  timeBlock?: { start: string; end: string } | null
  estimateMinutes?: number | null
  date?: string
}

export async function updatePlanItem(
  ctx: OperationContext,
  id: PlanItemId,
  change: PlanItemChange,
): Promise<PlanItem> {
  const userId = callerId(ctx)
  const item = await requireItem(ctx, id)
  if (change.text !== undefined && item.kind !== 'text') {
    throw new ProblemError('rule_violated', 'Only a text item has text; a task item shows its task.', {
      errors: [{ pointer: '/body/text', message: 'Not a text item' }],
    })
  }
  checkTimeBlock(change.timeBlock)
  const patch: PlanItemPatch = {}
  if (change.text !== undefined) patch.text = change.text
  if (change.timeBlock !== undefined) {
    patch.timeStart = change.timeBlock?.start ?? null
    patch.timeEnd = change.timeBlock?.end ?? null
  }
  if (change.estimateMinutes !== undefined) patch.estimateMinutes = change.estimateMinutes
  if (change.date !== undefined) calendarDate(change.date, '/body/date')
  const moving = change.date !== undefined && change.date !== item.date
  if (moving) {
    const target = await ctx.store.planItems.day(userId, change.date!)
    checkRoom(target)
    if (item.kind === 'task') refuseTwice(target, item.orgId!, item.taskId!)
    patch.date = change.date!
    patch.position = target.length
  }
  if (Object.keys(patch).length === 0) return getPlanItem(ctx, id)
  patch.updatedAt = ctx.now
  await ctx.store.planItems.update(userId, id, patch)
  if (moving) await renumber(ctx, await ctx.store.planItems.day(userId, item.date))
  return getPlanItem(ctx, id)
}

export async function removePlanItem(ctx: OperationContext, id: PlanItemId): Promise<void> {
  const userId = callerId(ctx)
  const item = await requireItem(ctx, id)
  await ctx.store.planItems.delete(userId, id)
  await renumber(ctx, await ctx.store.planItems.day(userId, item.date))
}

export async function completePlanItem(ctx: OperationContext, id: PlanItemId): Promise<PlanItem> {
  const item = await requireItem(ctx, id)
  if (!item.doneAt)
    await ctx.store.planItems.update(callerId(ctx), id, { doneAt: ctx.now, updatedAt: ctx.now })
  return getPlanItem(ctx, id)
}

export async function reopenPlanItem(ctx: OperationContext, id: PlanItemId): Promise<PlanItem> {
  const item = await requireItem(ctx, id)
  const current = await getPlanItem(ctx, id)
  if (current.doneBy === 'system:taskCompleted') {
    throw new ProblemError(
      'conflict',
      'The item is done because its task is completed; reopen the task to reopen the item.',
    )
  }
  if (item.doneAt) {
    await ctx.store.planItems.update(callerId(ctx), id, { doneAt: null, updatedAt: ctx.now })
    return getPlanItem(ctx, id)
  }
  return current
}

/**
 * Moves an item just before or after another item of the same day (hidden task items too); the
 * day is renumbered from 0. A move that changes nothing writes nothing.
 */
export async function movePlanItem(ctx: OperationContext, id: PlanItemId, to: MoveTo): Promise<PlanItem> {
  const item = await requireItem(ctx, id)
  const day = await ctx.store.planItems.day(callerId(ctx), item.date)
  const { order, moved } = placeMoved(day, item.id, to, 'another item of the same day')
  if (moved) await renumber(ctx, order)
  return getPlanItem(ctx, id)
}

/**
 * Moves the open items of earlier days to `date`, at its end, oldest day first. A task already on
 * the day keeps that item and drops the older one. Items done (by the person or by their task's
 * completion) and task items the person can no longer view stay where they are. Running it again
 * moves only what became open on an earlier day since: idempotent per day.
 */
export async function carryOver(
  ctx: OperationContext,
  date: string,
): Promise<{ date: string; carried: number; awayUntil: string | null; items: PlanItem[] }> {
  const userId = callerId(ctx)
  // Paused while away: the unfinished items wait on their days for the first day back.
  const away = await awayOn(ctx, userId, date)
  if (away) return { carried: 0, awayUntil: away.endDate, ...(await getPlanDay(ctx, date)) }
  const ws = workspaces(ctx)
  const day = await ctx.store.planItems.day(userId, date)
  const earlier = await ctx.store.planItems.openBefore(userId, date, PLAN_DAY_MAX)
  let position = day.length
  let carried = 0
  for (const item of earlier) {
    if (item.kind === 'task') {
      const view = await viewTask(ctx, ws, item.orgId!, item.taskId!)
      if (!('task' in view) || view.task.stateCategory === 'completed') continue
      if (day.some((i) => i.orgId === item.orgId && i.taskId === item.taskId)) {
        await ctx.store.planItems.delete(userId, item.id)
        carried++
        continue
      }
    }
    if (position >= PLAN_DAY_MAX) break
    await ctx.store.planItems.update(userId, item.id, {
      date,
      position: position++,
      carriedFrom: item.date,
      carryCount: item.carryCount + 1,
      updatedAt: ctx.now,
    })
    day.push({ ...item, date })
    carried++
  }
  // The days left behind keep contiguous ranks.
  for (const from of new Set(earlier.map((i) => i.date)))
    await renumber(ctx, await ctx.store.planItems.day(userId, from))
  return { carried, awayUntil: null, ...(await getPlanDay(ctx, date)) }
}

import { calendarDate, datesFrom, daysBetween, shiftDateWithin } from '../kernel/calendar.ts'
import { type CycleId, newId, type OrgId, type PlanItemId, type TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../kernel/ordering.ts'
import type { Actor } from '../kernel/permissions.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import type { Task } from '../tasks/schemas.ts'
import type { StateCategory } from '../teams/schemas.ts'
import { awayOn } from '../users/away.ts'
import type { PlanItem, PlanSource, SuggestionReason, VisiblePlanTask } from './plan-schemas.ts'
import { SUGGESTION_REASONS } from './plan-schemas.ts'
import { PLAN_DAY_MAX, PLAN_RANGE_DAYS, type PlanItemPatch, type PlanItemRecord } from './plan-storage.ts'
import { activeMemberships, callerId } from './profile.ts'

type TaskView = { task: Task; shown: VisiblePlanTask } | { hidden: 'no_access' | 'membership_ended' }

const OPEN: StateCategory[] = ['triage', 'backlog', 'unstarted', 'started']
/** Tasks of one workspace read for suggestions: the assigned open work of anyone's normal week. */
const SCAN = 200

/**
 * The person as an actor in each of their workspaces, one context per workspace for the request.
 * Null where the membership ended (or never was): nothing of that workspace is shown then.
 */
function workspaces(ctx: OperationContext) {
  const cache = new Map<OrgId, Promise<{ ctx: OperationContext; orgName: string } | null>>()
  const open = async (orgId: OrgId) => {
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
    return { ctx: ctx.within(org, actor), orgName: org.name }
  }
  return (orgId: OrgId) => {
    let pending = cache.get(orgId)
    if (!pending) {
      pending = open(orgId)
      cache.set(orgId, pending)
    }
    return pending
  }
}
type Workspaces = ReturnType<typeof workspaces>

const shownTask = (task: Task, orgName: string): VisiblePlanTask => ({
  hidden: false,
  orgId: task.orgId,
  orgName,
  id: task.id,
  key: task.key,
  title: task.title,
  stateCategory: task.stateCategory,
  dueDate: task.dueDate,
})

/** The task as the person may see it now, read through their read scope in its workspace. */
async function viewTask(
  ctx: OperationContext,
  ws: Workspaces,
  orgId: OrgId,
  taskId: TaskId,
): Promise<TaskView> {
  const inOrg = await ws(orgId)
  if (!inOrg) return { hidden: 'membership_ended' }
  const task = await ctx.store.tasks.get(orgId, taskId, await inOrg.ctx.scope())
  return task ? { task, shown: shownTask(task, inOrg.orgName) } : { hidden: 'no_access' }
}

function toItem(r: PlanItemRecord, view: TaskView | null): PlanItem {
  // A task completed anywhere closes its item, at read time: no write follows the task's.
  const byTask = view && 'task' in view && view.task.stateCategory === 'completed' && !r.doneAt
  return {
    id: r.id,
    date: r.date,
    position: r.position,
    kind: r.kind,
    text: r.text,
    task: view ? ('shown' in view ? view.shown : { hidden: true, reason: view.hidden }) : null,
    timeBlock: r.timeStart && r.timeEnd ? { start: r.timeStart, end: r.timeEnd } : null,
    estimateMinutes: r.estimateMinutes,
    source: r.source,
    carriedFrom: r.carriedFrom,
    carryCount: r.carryCount,
    doneAt: r.doneAt ?? (byTask && 'task' in view ? (view.task.completedAt ?? r.updatedAt) : null),
    doneBy: r.doneAt ? 'me' : byTask ? 'system:taskCompleted' : null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }
}

/**
 * What `viewTask` answers for every task item of `items`, with one read per workspace (the person's
 * read scope there) rather than one per item: a day of a person in 20 workspaces is 20 reads.
 * Keyed `orgId/taskId`.
 */
async function viewTasks(
  ctx: OperationContext,
  ws: Workspaces,
  items: readonly PlanItemRecord[],
): Promise<Map<string, TaskView>> {
  const byOrg = new Map<OrgId, Set<TaskId>>()
  for (const r of items) {
    if (r.kind !== 'task') continue
    const ids = byOrg.get(r.orgId!) ?? new Set<TaskId>()
    ids.add(r.taskId!)
    byOrg.set(r.orgId!, ids)
  }
  const views = new Map<string, TaskView>()
  for (const [orgId, ids] of byOrg) {
    const inOrg = await ws(orgId)
    const tasks = inOrg
      ? await ctx.store.tasks.list(
          orgId,
          // Archived ones too, as `tasks.get` reads them.
          { archived: null, ids: [...ids] },
          { sort: 'createdAt', direction: 'asc', after: null, limit: ids.size },
          await inOrg.ctx.scope(),
        )
      : []
    const found = new Map(tasks.map((t) => [t.id, t]))
    for (const id of ids) {
      const task = found.get(id)
      views.set(
        `${orgId}/${id}`,
        !inOrg
          ? { hidden: 'membership_ended' }
          : task
            ? { task, shown: shownTask(task, inOrg.orgName) }
            : { hidden: 'no_access' },
      )
    }
  }
  return views
}

/** The items with their tasks, read per workspace (`viewTasks`). */
async function presentAll(
  ctx: OperationContext,
  ws: Workspaces,
  items: readonly PlanItemRecord[],
): Promise<PlanItem[]> {
  const views = await viewTasks(ctx, ws, items)
  return items.map((r) => toItem(r, r.kind === 'task' ? views.get(`${r.orgId}/${r.taskId}`)! : null))
}

async function present(ctx: OperationContext, ws: Workspaces, r: PlanItemRecord): Promise<PlanItem> {
  const view = r.kind === 'task' ? await viewTask(ctx, ws, r.orgId!, r.taskId!) : null
  return toItem(r, view)
}

async function requireItem(ctx: OperationContext, id: PlanItemId): Promise<PlanItemRecord> {
  const item = await ctx.store.planItems.get(callerId(ctx), id)
  if (!item) throw notFound('PlanItem')
  return item
}

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

export async function getPlanDay(
  ctx: OperationContext,
  date: string,
): Promise<{ date: string; items: PlanItem[] }> {
  const ws = workspaces(ctx)
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

import { calendarDate, shiftDateWithin } from '../kernel/calendar.ts'
import { currentOrg } from '../kernel/context.ts'
import { type MemberId, newId, type ProjectId, type TaskId, type TimeEntryId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { Task } from '../tasks/schemas.ts'
import { isoWeek, weekOf } from './calendar.ts'
import type { SummaryGroup, TimeEntry, TimeEntrySource, TimeSummary } from './schemas.ts'
import type { TimeEntryFilter, TimeEntryRecord } from './storage.ts'

/** Groups a summary returns at most; its totals count every entry. */
export const SUMMARY_GROUPS_MAX = 500

export interface EntryQuery {
  memberId?: MemberId
  taskId?: TaskId
  projectId?: ProjectId
  from?: string
  to?: string
}

/** Time is a person's effort: an agent has no hours to log. */
export function loggingPerson(ctx: OperationContext): MemberId {
  const actor = ctx.actor!
  if (actor.kind !== 'person')
    throw new ProblemError('capability_required', 'Time is logged by people; an agent cannot log time.')
  return actor.id as MemberId
}

function filterOf(query: EntryQuery): TimeEntryFilter {
  const from = query.from === undefined ? undefined : calendarDate(query.from, '/query/from')
  const to = query.to === undefined ? undefined : calendarDate(query.to, '/query/to')
  if (from && to && from > to) {
    throw new ProblemError('rule_violated', '`from` is after `to`.', {
      errors: [{ pointer: '/query/from', message: 'After to' }],
    })
  }
  return {
    memberId: query.memberId,
    taskId: query.taskId,
    projectId: query.projectId,
    from,
    to,
  }
}

/** A day worked is today or earlier; tomorrow is allowed for people ahead of UTC. */
function workedDay(ctx: OperationContext, date: string | undefined, pointer: string): string {
  if (date === undefined) return ctx.now.slice(0, 10)
  calendarDate(date, pointer)
  if (date > shiftDateWithin(ctx.now.slice(0, 10), 1)) {
    throw new ProblemError('rule_violated', 'Time is logged for days already worked.', {
      errors: [{ pointer, message: 'In the future' }],
    })
  }
  return date
}

export async function listEntries(
  ctx: OperationContext,
  query: EntryQuery & { cursor?: string; limit?: number },
): Promise<Page<TimeEntry>> {
  const orgId = currentOrg(ctx).id
  const filter = filterOf(query)
  const scope = await ctx.scope()
  return readPage(ctx, {
    scope: ['timeEntries.list', filter],
    query,
    sort: 'date',
    direction: 'desc',
    keyOf: (e: TimeEntry) => e.date,
    fetch: (page) => ctx.store.timeEntries.list(orgId, filter, page, scope),
  })
}

export async function requireEntry(ctx: OperationContext, id: TimeEntryId): Promise<TimeEntry> {
  const entry = await ctx.store.timeEntries.get(currentOrg(ctx).id, id, await ctx.scope())
  if (!entry) throw notFound('Time entry')
  return entry
}

/** Writes an entry on a task the caller may contribute to (checked by the caller of this). */
export async function writeEntry(
  ctx: OperationContext,
  task: Task,
  input: {
    minutes: number
    date: string
    note: string | null
    source: TimeEntrySource
    startedAt: string | null
  },
): Promise<TimeEntry> {
  const record: TimeEntryRecord = {
    id: newId('TimeEntryId'),
    orgId: task.orgId,
    taskId: task.id,
    memberId: loggingPerson(ctx),
    minutes: input.minutes,
    date: input.date,
    week: weekOf(input.date),
    note: input.note,
    source: input.source,
    startedAt: input.startedAt,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.timeEntries.insert(record)
  const { week: _week, ...rest } = record
  const entry: TimeEntry = { ...rest, projectId: task.projectId }
  ctx.emit({
    kind: 'timeEntry.created',
    resourceType: 'time_entry',
    resourceId: entry.id,
    teamId: task.teamId,
    data: { entry },
  })
  return entry
}

export async function createEntry(
  ctx: OperationContext,
  taskId: TaskId,
  input: { minutes: number; date?: string; note?: string | null },
): Promise<TimeEntry> {
  loggingPerson(ctx)
  const task = await requireTask(ctx, taskId)
  return writeEntry(ctx, task, {
    minutes: input.minutes,
    date: workedDay(ctx, input.date, '/body/date'),
    note: input.note ?? null,
    source: 'manual',
    startedAt: null,
  })
}

/** One's own entry, or any entry of a task the caller may manage. */
async function requireWritable(ctx: OperationContext, id: TimeEntryId): Promise<TimeEntry> {
  const entry = await requireEntry(ctx, id)
  if (entry.memberId !== ctx.actor!.id) await ctx.require('manage', { type: 'task', id: entry.taskId })
  return entry
}

export async function updateEntry(
  ctx: OperationContext,
  id: TimeEntryId,
  input: { minutes?: number; date?: string; note?: string | null },
): Promise<TimeEntry> {
  const entry = await requireWritable(ctx, id)
  const date = input.date === undefined ? undefined : workedDay(ctx, input.date, '/body/date')
  const changed = Object.fromEntries(
    Object.entries({ minutes: input.minutes, date, note: input.note }).filter(
      ([k, v]) => v !== undefined && entry[k as keyof TimeEntry] !== v,
    ),
  ) as Partial<Pick<TimeEntry, 'minutes' | 'date' | 'note'>>
  if (Object.keys(changed).length === 0) return entry
  await ctx.store.timeEntries.update(entry.orgId, entry.id, {
    ...changed,
    ...(changed.date ? { week: weekOf(changed.date) } : {}),
    updatedAt: ctx.now,
  })
  const next = await requireEntry(ctx, id)
  ctx.emit({
    kind: 'timeEntry.updated',
    resourceType: 'time_entry',
    resourceId: next.id,
    teamId: await teamOf(ctx, next.taskId),
    data: { entry: next, changes: Object.keys(changed) },
  })
  return next
}

export async function deleteEntry(ctx: OperationContext, id: TimeEntryId): Promise<void> {
  const entry = await requireWritable(ctx, id)
  await ctx.store.timeEntries.delete(entry.orgId, entry.id)
  ctx.emit({
    kind: 'timeEntry.deleted',
    resourceType: 'time_entry',
    resourceId: entry.id,
    teamId: await teamOf(ctx, entry.taskId),
    data: { entry },
  })
}

const teamOf = async (ctx: OperationContext, taskId: TaskId) => (await requireTask(ctx, taskId)).teamId

export async function summarizeEntries(
  ctx: OperationContext,
  query: EntryQuery & { groupBy: SummaryGroup },
): Promise<TimeSummary> {
  const filter = filterOf(query)
  const totals = await ctx.store.timeEntries.summary(
    currentOrg(ctx).id,
    filter,
    query.groupBy,
    SUMMARY_GROUPS_MAX,
    await ctx.scope(),
  )
  const groups =
    query.groupBy === 'week'
      ? totals.groups.map((g) => ({ ...g, key: g.key === null ? null : isoWeek(g.key) }))
      : totals.groups
  return { groupBy: query.groupBy, ...totals, groups }
}

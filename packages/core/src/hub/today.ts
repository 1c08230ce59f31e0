import type { ApprovalRequest } from '../access/schemas.ts'
import { shiftDateWithin } from '../kernel/calendar.ts'
import type { MemberId, OrgId, UserId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { getPlanDay } from '../me/plan/plan.ts'
import type { OpenWorkspace } from '../me/plan/view.ts'
import type { Notification } from '../notifications/schemas.ts'
import { present } from '../notifications/service.ts'
import type { StandingReader, StreamReader } from '../streams/readers.ts'
import type { Task } from '../tasks/schemas.ts'
import type { TaskFilter } from '../tasks/storage.ts'
import { listDue } from '../updates/cadence.ts'
import type { UpdateDueItem } from '../updates/cadence-schemas.ts'
import { decidableApprovals } from './approvals.ts'
import { fanOut } from './fanout.ts'
import { contextIn } from './orgs.ts'
import { OPEN_CATEGORIES } from './tasks/tasks.ts'

export const TODAY_SECTION_LIMIT_DEFAULT = 10
export const TODAY_TASK_SECTIONS = ['overdue', 'dueToday', 'dueSoon', 'currentCycle', 'unblocked'] as const
type TaskSection = (typeof TODAY_TASK_SECTIONS)[number]

interface Section<T> {
  items: T[]
  more: boolean
}

/** `YYYY-MM-DD` of `now` in the time zone (UTC when none), and the day `days` later. */
export function dateIn(now: string, timeZone: string | null): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC' }).format(new Date(now))
}

/**
 * The caller's open, unarchived tasks of each section (assigned to them), as `tasks.list` storage
 * filters them with their read scope: overdue (due before today), due today, due soon (the next two
 * days), in a running cycle, and newly unblocked (a blocker completed in the last 24 h and none open).
 */
function taskFilters(me: MemberId, today: string, now: string): Record<TaskSection, TaskFilter> {
  const mine: TaskFilter = { assigneeId: me, stateCategory: OPEN_CATEGORIES, archived: false }
  const dayAgo = new Date(Date.parse(now) - 24 * 3_600_000).toISOString()
  return {
    overdue: { ...mine, dueBefore: shiftDateWithin(today, -1) },
    dueToday: { ...mine, dueAfter: today, dueBefore: today },
    dueSoon: { ...mine, dueAfter: shiftDateWithin(today, 1), dueBefore: shiftDateWithin(today, 2) },
    currentCycle: { ...mine, cycleRunningAt: now },
    unblocked: { ...mine, blocked: false, blockerCompletedSince: dayAgo },
  }
}

/** A record the caller leads or owns whose status update is due, with its workspace. */
export type TodayUpdateDue = UpdateDueItem & { orgId: OrgId }

interface OrgToday {
  /** The caller's context there (null for a deleted workspace): the daily plan reads through it. */
  as: OperationContext | null
  tasks: Record<TaskSection, Task[]>
  approvals: ApprovalRequest[]
  mentions: Notification[]
  updatesDue: TodayUpdateDue[]
}

/**
 * What `updates.due` answers there with `ownerId=me` (its cadences, its visibility predicate), as the
 * caller's member (`as`, their context there), up to `limit + 1` rows like the other sections.
 */
async function updatesDueIn(as: OperationContext, orgId: OrgId, limit: number): Promise<TodayUpdateDue[]> {
  const page = await listDue(as, { ownerId: 'me', limit: limit + 1 })
  return page.data.map((item) => ({ orgId, ...item }))
}

/**
 * One workspace's sections, each up to `limit + 1` rows (the extra one tells `more`): the five task
 * sections in one read (and one of their labels, fields and blocked flags), the mentions, and, in
 * one context there, the approvals and the updates due.
 */
async function todayIn(
  ctx: OperationContext,
  reader: StreamReader,
  today: string,
  limit: number,
): Promise<OrgToday> {
  const me = reader.actor.id as MemberId
  const filters = taskFilters(me, today, ctx.now)
  const pages = await ctx.store.tasks.listEach(
    reader.orgId,
    TODAY_TASK_SECTIONS.map((section) => filters[section]),
    { sort: 'dueDate', direction: 'asc', after: null, limit },
    reader.scope,
  )
  const tasks = Object.fromEntries(TODAY_TASK_SECTIONS.map((section, i) => [section, pages[i]!])) as Record<
    TaskSection,
    Task[]
  >
  const mentions = await ctx.store.notifications.list(
    reader.orgId,
    me,
    { view: 'inbox', unread: true, kind: 'mentioned' },
    ctx.now,
    { sort: 'createdAt', direction: 'desc', after: null, limit },
  )
  const as = await contextIn(ctx, reader)
  const approvals = as ? await decidableApprovals(as, reader, null, limit + 1) : []
  const updatesDue = as ? await updatesDueIn(as, reader.orgId, limit) : []
  return { as, tasks, approvals, mentions: mentions.map((n) => present(n, ctx.now)), updatesDue }
}

/** Takes the first `limit` of the merged rows; `more` when any workspace had more. */
function section<T>(
  parts: Array<{ orgId: OrgId; rows: T[] }>,
  limit: number,
  before: (a: T, b: T) => boolean,
): Section<T> {
  const all = parts.flatMap((p) => p.rows)
  const more = all.length > limit || parts.some((p) => p.rows.length > limit)
  const items = parts
    .flatMap((p) => p.rows.slice(0, limit))
    .sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0))
    .slice(0, limit)
  return { items, more }
}

const byDue = (a: Task, b: Task) =>
  (a.dueDate ?? '9999-12-31') < (b.dueDate ?? '9999-12-31') ||
  ((a.dueDate ?? '9999-12-31') === (b.dueDate ?? '9999-12-31') &&
    (a.orgId < b.orgId || (a.orgId === b.orgId && a.id < b.id)))

const byDueAt = (a: TodayUpdateDue, b: TodayUpdateDue) =>
  a.nextUpdateDueAt < b.nextUpdateDueAt ||
  (a.nextUpdateDueAt === b.nextUpdateDueAt &&
    (a.orgId < b.orgId || (a.orgId === b.orgId && a.subjectId < b.subjectId)))

/** The contexts the workspaces were read with, for the daily plan to read its tasks through. */
function opened(orgs: Array<{ orgId: OrgId; reader: StandingReader; value: OrgToday }>) {
  const out = new Map<OrgId, OpenWorkspace>()
  for (const r of orgs) if (r.value.as) out.set(r.orgId, { ctx: r.value.as, orgName: r.reader.org.name })
  return out
}

/**
 * What needs the caller today in every workspace, in sections, each capped at `limit` with `more`.
 * "Today" is the caller's date in their profile's time zone (UTC when unset) unless `date` says.
 * The daily plan of that day is the person's own (one read of their plan, not per workspace); its
 * task items are shown through each workspace's read scope, as `me.dailyPlan.list` shows them.
 */
export async function hubToday(ctx: OperationContext, query: { date?: string; limit?: number }) {
  const limit = query.limit ?? TODAY_SECTION_LIMIT_DEFAULT
  const profile = await ctx.store.users.getProfile(ctx.principal!.userId as UserId)
  const today = query.date ?? dateIn(ctx.now, profile?.timeZone ?? null)
  const { results, partial } = await fanOut(ctx, async (reader) =>
    reader.actor.kind === 'person' ? todayIn(ctx, reader, today, limit) : null,
  )
  const orgs = results.filter((r): r is typeof r & { value: OrgToday } => r.value !== null)
  const tasks = Object.fromEntries(
    TODAY_TASK_SECTIONS.map((name) => [
      name,
      section(
        orgs.map((r) => ({ orgId: r.orgId, rows: r.value.tasks[name] })),
        limit,
        byDue,
      ),
    ]),
  ) as Record<TaskSection, Section<Task>>
  return {
    date: today,
    ...tasks,
    approvals: section(
      orgs.map((r) => ({ orgId: r.orgId, rows: r.value.approvals })),
      limit,
      (a, b) => a.expiresAt < b.expiresAt || (a.expiresAt === b.expiresAt && a.id < b.id),
    ),
    mentions: section(
      orgs.map((r) => ({ orgId: r.orgId, rows: r.value.mentions })),
      limit,
      (a, b) => a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.id > b.id),
    ),
    updatesDue: section(
      orgs.map((r) => ({ orgId: r.orgId, rows: r.value.updatesDue })),
      limit,
      byDueAt,
    ),
    plan: (await getPlanDay(ctx, today, opened(orgs))).items,
    partial,
  }
}

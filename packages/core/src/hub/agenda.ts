import type { CycleRecord } from '../cycles/storage.ts'
import { requireInitiative } from '../initiatives/service.ts'
import type { InitiativeId, MemberId, ProjectId, TeamId, UserId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { requireProject } from '../projects/service.ts'
import type { StreamReader } from '../streams/readers.ts'
import { fanOut, HUB_ITEMS_MAX } from './fanout.ts'
import { contextIn, orNull } from './orgs.ts'
import { relatedIn } from './portfolio.ts'
import { OPEN_CATEGORIES } from './tasks/tasks.ts'

/** What falls on a day of the agenda. */
export const AGENDA_KINDS = [
  'taskDue',
  'milestone',
  'projectTarget',
  'initiativeTarget',
  'cycleStart',
  'cycleEnd',
  'timeBlock',
] as const
export type AgendaKind = (typeof AGENDA_KINDS)[number]

/** The longest range one agenda read covers, in days (both ends counted). */
export const AGENDA_MAX_DAYS = 62
/** How many items of each source one workspace contributes at most. */
const PER_SOURCE_MAX = 200

export interface AgendaItem {
  date: string
  kind: AgendaKind
  orgId: string | null
  recordType: 'task' | 'milestone' | 'project' | 'initiative' | 'cycle' | 'planItem'
  id: string
  title: string | null
  time: { start: string; end: string } | null
}

const inRange = (date: string | null, from: string, to: string): date is string =>
  date !== null && date >= from && date <= to

/** One workspace's dated items, as its member (only what they may view there). */
async function agendaIn(
  ctx: OperationContext,
  reader: StreamReader,
  from: string,
  to: string,
): Promise<AgendaItem[]> {
  const as = await contextIn(ctx, reader)
  if (!as || reader.actor.kind !== 'person') return []
  const orgId = reader.orgId
  const items: AgendaItem[] = []
  const tasks = await ctx.store.tasks.list(
    orgId,
    {
      assigneeId: reader.actor.id as MemberId,
      stateCategory: OPEN_CATEGORIES,
      archived: false,
      dueAfter: from,
      dueBefore: to,
    },
    { sort: 'dueDate', direction: 'asc', after: null, limit: PER_SOURCE_MAX },
    reader.scope,
  )
  for (const t of tasks.slice(0, PER_SOURCE_MAX)) {
    items.push({
      date: t.dueDate!,
      kind: 'taskDue',
      orgId,
      recordType: 'task',
      id: t.id,
      title: t.title,
      time: null,
    })
  }
  for (const ref of await relatedIn(ctx, reader, ['project', 'initiative'])) {
    if (ref.type === 'project') {
      const project = await orNull(() => requireProject(as, ref.id as ProjectId))
      if (!project) continue
      if (inRange(project.targetDate, from, to)) {
        items.push({
          date: project.targetDate,
          kind: 'projectTarget',
          orgId,
          recordType: 'project',
          id: project.id,
          title: project.name,
          time: null,
        })
      }
      for (const m of await ctx.store.milestones.all(orgId, project.id)) {
        if (!inRange(m.targetDate, from, to)) continue
        items.push({
          date: m.targetDate,
          kind: 'milestone',
          orgId,
          recordType: 'milestone',
          id: m.id,
          title: m.name,
          time: null,
        })
      }
    } else {
      const initiative = await orNull(() => requireInitiative(as, ref.id as InitiativeId))
      if (initiative && inRange(initiative.targetDate, from, to)) {
        items.push({
          date: initiative.targetDate,
          kind: 'initiativeTarget',
          orgId,
          recordType: 'initiative',
          id: initiative.id,
          title: initiative.name,
          time: null,
        })
      }
    }
  }
  // Cycle boundaries of the teams the member belongs to (and may view).
  const profile = await as.access()
  for (const teamId of profile.teamIds) {
    const cycles: CycleRecord[] = await ctx.store.cycles.list(
      orgId,
      // Archived cycles are finished ones, kept for history: not on anyone's agenda.
      { teamId: teamId as TeamId, archived: false },
      { sort: 'startsAt', direction: 'asc', after: null, limit: PER_SOURCE_MAX },
      reader.scope,
    )
    for (const c of cycles) {
      const title = c.name ?? `Cycle ${c.number}`
      const starts = c.startsAt.slice(0, 10)
      const ends = c.endsAt.slice(0, 10)
      if (inRange(starts, from, to))
        items.push({
          date: starts,
          kind: 'cycleStart',
          orgId,
          recordType: 'cycle',
          id: c.id,
          title,
          time: null,
        })
      if (inRange(ends, from, to))
        items.push({ date: ends, kind: 'cycleEnd', orgId, recordType: 'cycle', id: c.id, title, time: null })
    }
  }
  return items
}

/** The caller's daily-plan items with a time block in the range (their own, in no workspace's log). */
async function timeBlocks(ctx: OperationContext, from: string, to: string): Promise<AgendaItem[]> {
  const userId = ctx.principal!.userId as UserId
  const items: AgendaItem[] = []
  // One read for the range (it was one per day: up to 62 statements).
  for (const p of await ctx.store.planItems.range(userId, from, to)) {
    if (!p.timeStart || !p.timeEnd) continue
    items.push({
      date: p.date,
      kind: 'timeBlock',
      orgId: p.orgId,
      recordType: 'planItem',
      id: p.id,
      // A task item holds only the task's reference; its title is read where the task is visible.
      title: p.text,
      time: { start: p.timeStart, end: p.timeEnd },
    })
  }
  return items
}

const KIND_ORDER = Object.fromEntries(AGENDA_KINDS.map((k, i) => [k, i])) as Record<AgendaKind, number>

/** By date, time block start (untimed first), kind, workspace, id. */
function agendaOrder(a: AgendaItem, b: AgendaItem): number {
  return (
    a.date.localeCompare(b.date) ||
    (a.time?.start ?? '').localeCompare(b.time?.start ?? '') ||
    KIND_ORDER[a.kind] - KIND_ORDER[b.kind] ||
    (a.orgId ?? '').localeCompare(b.orgId ?? '') ||
    a.id.localeCompare(b.id)
  )
}

/**
 * Dated items between `from` and `to` (inclusive, at most {@link AGENDA_MAX_DAYS} days) in every
 * workspace: my open tasks' due dates, milestones and target dates of the projects and initiatives I
 * lead, own, belong to or follow, cycle boundaries of my teams, and my daily plan's time blocks.
 */
export async function hubAgenda(ctx: OperationContext, query: { from: string; to: string; orgId?: string }) {
  const { from, to } = query
  const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000 + 1
  if (days < 1 || days > AGENDA_MAX_DAYS) {
    throw new ProblemError(
      'rule_violated',
      `\`to\` must be on or after \`from\`, at most ${AGENDA_MAX_DAYS} days in all.`,
      { errors: [{ pointer: '/query/to', message: `From \`from\` to ${AGENDA_MAX_DAYS - 1} days later` }] },
    )
  }
  const { results, partial } = await fanOut(ctx, (reader) => agendaIn(ctx, reader, from, to), {
    only: query.orgId as never,
  })
  // A time block naming a workspace shows only while the caller belongs to it (and it answered).
  const answered = new Set<string>(results.map((r) => r.orgId))
  const blocks = (await timeBlocks(ctx, from, to)).filter((b) =>
    b.orgId === null ? !query.orgId : answered.has(b.orgId),
  )
  const data = [...results.flatMap((r) => r.value), ...blocks].sort(agendaOrder).slice(0, HUB_ITEMS_MAX)
  return { from, to, data, partial }
}

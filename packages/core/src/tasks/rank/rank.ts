import { generateKeyBetween, generateNKeysBetween } from 'fractional-indexing'
import { currentOrg } from '../../kernel/context.ts'
import type { OrgId, TaskId, TeamId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { MoveTo } from '../../kernel/ordering.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { referenceNotFound } from '../../kernel/references.ts'
import { requireTask } from '../require-task.ts'
import type { Task } from '../schemas.ts'
import { type RankedTask, TASK_LISTS, type TaskList, type TaskListKind, type TaskPlaces } from './storage.ts'
import './storage.ts'

/**
 * Manual order (docs/api-conventions.md, "Order"). A task has a rank in each list it stands in:
 * its board column (its state; a state belongs to one team), its project and its cycle. A rank is
 * a fractional-indexing key: a move puts one between its new neighbours', so it writes one row
 * however long the list. Every write of a rank holds the list's lock, so a list's ranks stay
 * unique (a partial unique index keeps it so) and `(rank, id)` orders it the same for every reader.
 */

/** The lists a task stands in, by the ids that name them. */
export interface TaskListIds {
  stateId: string
  projectId: string | null
  cycleId: string | null
}

/** The rank columns, as a task's record holds them. */
export interface TaskRanks {
  boardRank: string
  projectRank: string | null
  cycleRank: string | null
}

const LIST_ID = { board: 'stateId', project: 'projectId', cycle: 'cycleId' } as const
const RANK = { board: 'boardRank', project: 'projectRank', cycle: 'cycleRank' } as const

/** The list of the kind the task stands in; null when it is in no project or cycle. */
export function listOf(kind: TaskListKind, ids: TaskListIds): TaskList | null {
  const id = ids[LIST_ID[kind]]
  return id ? { kind, id } : null
}

/** The list's lock: moves and arrivals in one list run one at a time. */
const lockOf = (orgId: OrgId, list: TaskList) => `task-ranks:${orgId}:${list.kind}:${list.id}`

/**
 * The ranks of a task arriving in lists: last in each list it enters (a new task, or one whose
 * state, project or cycle changed); null for a project or cycle it leaves; nothing for a list it
 * stays in, where it keeps its place. Takes the entered lists' locks, in one order.
 */
export async function ranksOnEnter(
  ctx: OperationContext,
  orgId: OrgId,
  before: TaskListIds | null,
  after: TaskListIds,
): Promise<Partial<TaskRanks>> {
  const ranks: Partial<TaskRanks> = {}
  const entered: TaskList[] = []
  for (const kind of ['board', 'project', 'cycle'] as const) {
    const list = listOf(kind, after)
    if (before && before[LIST_ID[kind]] === after[LIST_ID[kind]]) continue
    if (list) entered.push(list)
    else if (kind !== 'board') ranks[RANK[kind]] = null
  }
  entered.sort((a, b) => (lockOf(orgId, a) < lockOf(orgId, b) ? -1 : 1))
  if (entered.length === 0) return ranks
  // Every entered list's lock in one statement, then every list's last rank in one read.
  await ctx.store.locks.acquire(...entered.map((list) => lockOf(orgId, list)))
  const lasts = await ctx.store.taskRanks.lastOf(orgId, entered)
  for (const [i, list] of entered.entries())
    (ranks as Record<string, string>)[RANK[list.kind]] = generateKeyBetween(lasts[i] ?? null, null)
  return ranks
}

/** `count` ranks in increasing order, as a list ranked from scratch holds them (seeding a store directly). */
export function ranksInOrder(count: number): string[] {
  return generateNKeysBetween(null, null, count)
}

/** A rank after every task of the list, under the list's lock (held until the transaction ends). */
export async function rankAtEnd(ctx: OperationContext, orgId: OrgId, list: TaskList): Promise<string> {
  await ctx.store.locks.acquire(lockOf(orgId, list))
  const [last] = await ctx.store.taskRanks.lastOf(orgId, [list])
  return generateKeyBetween(last ?? null, null)
}

/**
 * A new task's number in its team and its ranks: last in its board column, and in its project and
 * cycle when it has them. The number is allocated first, then the lists' locks taken, as a create
 * always took them (`numberAndLastOf`: one statement on either database).
 */
export async function numberAndRanksOfNewTask(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  lists: TaskListIds,
): Promise<{ number: number; ranks: TaskRanks }> {
  const entered = TASK_LISTS.map((kind) => listOf(kind, lists)).filter((l) => l !== null)
  entered.sort((a, b) => (lockOf(orgId, a) < lockOf(orgId, b) ? -1 : 1))
  const locks = entered.map((list) => lockOf(orgId, list))
  const { number, lasts } = await ctx.store.taskRanks.numberAndLastOf(orgId, teamId, entered, locks)
  const ranks: TaskRanks = { boardRank: '', projectRank: null, cycleRank: null }
  for (const [i, list] of entered.entries())
    ranks[RANK[list.kind]] = generateKeyBetween(lasts[i] ?? null, null)
  return { number, ranks }
}

/**
 * Puts the task just before `beforeId` or just after `afterId`, another unarchived task of the same
 * list that the caller may view. Tasks hidden from the caller keep their places and play no part:
 * the task goes next to the anchor, and a move after which the caller would see the same order
 * changes nothing and emits nothing. Writes one row and emits `task.moved`.
 */
export async function moveTask(
  ctx: OperationContext,
  taskId: TaskId,
  kind: TaskListKind,
  to: MoveTo,
): Promise<Task> {
  const orgId = currentOrg(ctx).id
  const task = await requireTask(ctx, taskId)
  if (task.archivedAt)
    throw new ProblemError('archived', 'The task is archived; restore it before moving it.')
  const list = listOf(kind, task)
  if (!list) {
    throw new ProblemError('rule_violated', `The task is in no ${kind}.`, {
      errors: [{ pointer: '/body/list', message: `The task is in no ${kind}` }],
    })
  }
  await ctx.store.locks.acquire(lockOf(orgId, list))
  const [field, anchorId] = to.beforeId ? ['beforeId', to.beforeId] : ['afterId', to.afterId!]
  const what = `another unarchived task of the same ${kind === 'board' ? 'board column (state)' : kind}`
  const scope = await ctx.scope()
  const anchorPlaces =
    anchorId === task.id ? null : await ctx.store.taskRanks.places(orgId, anchorId as TaskId)
  const anchor = anchorPlaces && rankedIn(anchorPlaces, list)
  if (!anchor || anchorPlaces.archived || !(await ctx.store.tasks.get(orgId, anchor.id, scope))) {
    throw referenceNotFound(`/body/${field}`, `\`${field}\` is not ${what}.`, `Must be ${what}`)
  }
  const mine = await ctx.store.taskRanks.places(orgId, task.id)
  if (!mine || !rankedIn(mine, list)) {
    throw new ProblemError('conflict', 'The task left the list while it was being moved; retry.')
  }
  const side = field === 'beforeId' ? 'before' : 'after'
  // What the caller sees: already next to the anchor on that side, the move changes nothing.
  const seen = await ctx.store.taskRanks.neighbour(orgId, list, anchor, side, { scope })
  if (seen?.id === task.id) return task
  const other = await ctx.store.taskRanks.neighbour(orgId, list, anchor, side, { exceptId: task.id })
  const [lo, hi] = side === 'before' ? [other?.rank ?? null, anchor.rank] : [anchor.rank, other?.rank ?? null]
  if (lo !== null && hi !== null && lo >= hi) {
    throw new ProblemError('conflict', 'The list changed while the task was being moved; retry.')
  }
  if (!(await ctx.store.taskRanks.place(orgId, task.id, list, generateKeyBetween(lo, hi), ctx.now))) {
    throw new ProblemError('conflict', 'The task left the list while it was being moved; retry.')
  }
  const next = await requireTask(ctx, task.id)
  ctx.emit({
    kind: 'task.moved',
    resourceType: 'task',
    resourceId: task.id,
    teamId: task.teamId,
    data: { task: next, list: kind, listId: list.id },
  })
  return next
}

/** The task's place in the list, if it stands in it. */
function rankedIn(places: TaskPlaces, list: TaskList): RankedTask | null {
  const rank = places[RANK[list.kind]]
  return places[LIST_ID[list.kind]] === list.id && rank ? { id: places.id, rank } : null
}

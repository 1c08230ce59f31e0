import type { StoredEvent } from '../kernel/events/events.ts'
import type { OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Task } from '../tasks/schemas.ts'
import type { LinkRelation, RuleTriggerSpec } from './schemas.ts'

/** The event the due-date pass writes when an open task's due date passes (due.ts). */
export const DUE_DATE_PASSED = 'task.due_date_passed'

/** A task an event may run rules on, and which triggers the event fires for it. */
export interface Fired {
  taskId: TaskId
  teamId: TeamId
  fires(trigger: RuleTriggerSpec): boolean
  /**
   * When what fired happened: a rule acts only on what happens after its creation. An event's time,
   * or the moment a due date passed (the pass may write its event later).
   */
  since: string
}

type Changes = Record<string, { before: unknown; after: unknown } | undefined>

/** The tasks an event is about and the triggers it fires for each; none for events no rule waits for. */
export async function firedBy(ctx: OperationContext, orgId: OrgId, event: StoredEvent): Promise<Fired[]> {
  if (event.resourceType !== 'task' || !event.teamId) return []
  const about = { taskId: event.resourceId as TaskId, teamId: event.teamId, since: event.createdAt }
  if (event.kind === 'task.created') return [{ ...about, fires: (t) => t.on === 'taskCreated' }]
  if (event.kind === DUE_DATE_PASSED) {
    const since = event.data.passedAt as string
    return [{ ...about, since, fires: (t) => t.on === 'dueDatePassed' }]
  }
  if (event.kind !== 'task.updated') return []
  const changes = (event.data.changes ?? {}) as Changes
  const own: Fired = { ...about, fires: (t) => firesOnChange(t, changes) }
  const state = changes.stateId
  if (!state || state.before === state.after) return [own]
  const moved = event.data.task as Task
  return [own, ...(await linkedTo(ctx, orgId, moved)).map((l) => linkedFired(l, moved, about.since))]
}

function firesOnChange(t: RuleTriggerSpec, changes: Changes): boolean {
  if (t.on === 'stateEntered') {
    const c = changes.stateId
    return !!c && c.before !== c.after && (!t.stateId || c.after === t.stateId)
  }
  if (t.on === 'assigneeChanged')
    return !!changes.assigneeId && changes.assigneeId.before !== changes.assigneeId.after
  if (t.on === 'labelAdded') {
    const c = changes.labelIds
    const before = (c?.before ?? []) as string[]
    const added = ((c?.after ?? []) as string[]).filter((l) => !before.includes(l))
    return added.length > 0 && (!t.labelId || added.includes(t.labelId))
  }
  return false
}

interface Linked {
  task: Pick<Task, 'id' | 'teamId'>
  /** How the task that moved is linked to this one. */
  relation: LinkRelation
}

function linkedFired(linked: Linked, moved: Task, since: string): Fired {
  return {
    taskId: linked.task.id as TaskId,
    teamId: linked.task.teamId as TeamId,
    since,
    fires: (t) =>
      t.on === 'linkedItemStateChanged' &&
      (!t.relation || t.relation === linked.relation) &&
      (!t.category || t.category === moved.stateCategory),
  }
}

/** Tasks a task that links at most this many others wakes; more wait for no rule. */
const LINKED_LIMIT = 200

/**
 * The unarchived tasks linked to `moved`: those it blocks (`blockedBy` from their side), those that
 * block it (`blocks`), its subtasks (`parent`) and its parent (`child`). Read whoever may view them:
 * the rule's conditions are then read as its author.
 */
async function linkedTo(ctx: OperationContext, orgId: OrgId, moved: Task): Promise<Linked[]> {
  const id = moved.id as TaskId
  const page = { sort: 'createdAt', direction: 'asc', after: null, limit: LINKED_LIMIT } as const
  const list = (filter: { blockedBy: TaskId } | { blockersOf: TaskId } | { parentId: TaskId }) =>
    ctx.store.tasks.list(orgId, { ...filter, archived: false }, page, UNSCOPED)
  const found: Array<[Task | null, LinkRelation]> = [
    ...(await list({ blockedBy: id })).map((t) => [t, 'blockedBy'] as [Task, LinkRelation]),
    ...(await list({ blockersOf: id })).map((t) => [t, 'blocks'] as [Task, LinkRelation]),
    ...(await list({ parentId: id })).map((t) => [t, 'parent'] as [Task, LinkRelation]),
  ]
  if (moved.parentId)
    found.push([await ctx.store.tasks.get(orgId, moved.parentId as TaskId, UNSCOPED), 'child'])
  const out: Linked[] = []
  for (const [task, relation] of found) if (task && !task.archivedAt) out.push({ task, relation })
  return out
}

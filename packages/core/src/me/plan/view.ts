import type { OrgId, PlanItemId, TaskId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Actor } from '../../kernel/permissions.ts'
import { notFound } from '../../kernel/problems.ts'
import type { Task } from '../../tasks/schemas.ts'
import { callerId } from '../profile/profile.ts'
import type { PlanItem, VisiblePlanTask } from './schemas.ts'
import type { PlanItemRecord } from './storage.ts'

// How a plan item reads: its task as the person may see it now, in each of their workspaces.

export type TaskView = { task: Task; shown: VisiblePlanTask } | { hidden: 'no_access' | 'membership_ended' }

/** The person's context in one workspace, and the workspace's name. */
export interface OpenWorkspace {
  ctx: OperationContext
  orgName: string
}

/**
 * The person as an actor in each of their workspaces, one context per workspace for the request.
 * Null where the membership ended (or never was): nothing of that workspace is shown then. `opened`:
 * contexts the caller already holds (a hub read's), used instead of reading the org and member again.
 */
export function workspaces(ctx: OperationContext, opened?: ReadonlyMap<OrgId, OpenWorkspace>) {
  const cache = new Map<OrgId, Promise<OpenWorkspace | null>>()
  for (const [orgId, open] of opened ?? []) cache.set(orgId, Promise.resolve(open))
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
export type Workspaces = ReturnType<typeof workspaces>

export const shownTask = (task: Task, orgName: string): VisiblePlanTask => ({
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
export async function viewTask(
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

export function toItem(r: PlanItemRecord, view: TaskView | null): PlanItem {
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
export async function presentAll(
  ctx: OperationContext,
  ws: Workspaces,
  items: readonly PlanItemRecord[],
): Promise<PlanItem[]> {
  const views = await viewTasks(ctx, ws, items)
  return items.map((r) => toItem(r, r.kind === 'task' ? views.get(`${r.orgId}/${r.taskId}`)! : null))
}

export async function present(ctx: OperationContext, ws: Workspaces, r: PlanItemRecord): Promise<PlanItem> {
  const view = r.kind === 'task' ? await viewTask(ctx, ws, r.orgId!, r.taskId!) : null
  return toItem(r, view)
}

export async function requireItem(ctx: OperationContext, id: PlanItemId): Promise<PlanItemRecord> {
  const item = await ctx.store.planItems.get(callerId(ctx), id)
  if (!item) throw notFound('PlanItem')
  return item
}

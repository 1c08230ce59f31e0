import { atLeast } from '../kernel/capabilities.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ProjectId, StateId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { capabilityIn } from '../kernel/permissions.ts'
import { ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Task } from '../tasks/schemas.ts'
import { updateTask } from '../tasks/service.ts'
import type { StateCategory } from '../teams/schemas.ts'
import type { Project, ProjectStatusCategory } from './schemas.ts'

/**
 * What happens to a project's open tasks when it is completed or canceled:
 * - `keep`: they stay in the project, open;
 * - `cancel`: each goes to the first active `canceled` workflow state of its team;
 * - `move`: each goes to the project `moveTasksTo` (and leaves its milestone).
 */
export const OPEN_TASK_POLICIES = ['keep', 'cancel', 'move'] as const
export type OpenTaskPolicy = (typeof OPEN_TASK_POLICIES)[number]

export interface ClosingChoice {
  openTasks?: OpenTaskPolicy
  moveTasksTo?: ProjectId
}

const CLOSED: readonly ProjectStatusCategory[] = ['completed', 'canceled']
const OPEN_TASK_CATEGORIES: StateCategory[] = ['triage', 'backlog', 'unstarted', 'started']

function invalid(pointer: string, message: string): ProblemError {
  return new ProblemError('rule_violated', message, { errors: [{ pointer, message }] })
}

/** Every open (unarchived, not completed or canceled) task of the project, hidden ones included. */
async function openTasksOf(ctx: OperationContext, project: Project): Promise<Task[]> {
  const out: Task[] = []
  let after: { value: string; id: string } | null = null
  for (;;) {
    const page = await ctx.store.tasks.list(
      project.orgId,
      { projectId: project.id, stateCategory: OPEN_TASK_CATEGORIES, archived: false },
      { sort: 'createdAt', direction: 'asc', after, limit: 500 },
      UNSCOPED,
    )
    out.push(...page.slice(0, 500))
    if (page.length <= 500) return out
    const last = page[499]!
    after = { value: last.createdAt, id: last.id }
  }
}

/**
 * Before a status change: a project entering `completed` or `canceled` from another category with
 * open tasks needs `openTasks`. Without it the change is refused with 409 `open_work`, which counts
 * the open tasks by state category (tasks the caller cannot see are counted, never named). With it
 * the disposition runs task by task as the caller (`contribute` on every open task, else 403 before
 * anything changes, and on the target project for `move`), each change a `task.updated`, in the same transaction as the status change.
 */
export async function settleOpenTasks(
  ctx: OperationContext,
  project: Project,
  nextCategory: ProjectStatusCategory | null,
  choice: ClosingChoice,
): Promise<void> {
  const closing =
    nextCategory !== null && CLOSED.includes(nextCategory) && nextCategory !== project.statusCategory
  if (!closing) {
    if (choice.openTasks || choice.moveTasksTo)
      throw invalid(
        '/body/openTasks',
        '`openTasks` applies only to a `statusId` that moves the project into a completed or canceled status.',
      )
    return
  }
  if (choice.moveTasksTo && choice.openTasks !== 'move')
    throw invalid('/body/moveTasksTo', '`moveTasksTo` goes with `openTasks: "move"`.')
  if (choice.openTasks === 'move' && !choice.moveTasksTo)
    throw invalid(
      '/body/moveTasksTo',
      '`openTasks: "move"` needs `moveTasksTo`, the project the open tasks go to.',
    )
  const open = await openTasksOf(ctx, project)
  if (open.length === 0) return
  if (!choice.openTasks) {
    const byCategory = Object.fromEntries(OPEN_TASK_CATEGORIES.map((c) => [c, 0])) as Record<string, number>
    for (const t of open) byCategory[t.stateCategory] = (byCategory[t.stateCategory] ?? 0) + 1
    throw new ProblemError(
      'open_work',
      `The project has ${open.length} open task${open.length === 1 ? '' : 's'}: send \`openTasks\` (\`keep\`, \`cancel\`, or \`move\` with \`moveTasksTo\`) to say what happens to them.`,
      { extensions: { openTasks: open.length, byCategory, choices: [...OPEN_TASK_POLICIES] } },
    )
  }
  if (choice.openTasks === 'keep') return
  if (choice.openTasks === 'move') {
    const target = await ctx.store.projects.get(project.orgId, choice.moveTasksTo!, await ctx.scope())
    if (!target || target.archivedAt || target.id === project.id)
      throw new ProblemError(
        'reference_not_found',
        'The project to move the open tasks to does not exist, is not visible to you, is archived, or is this project.',
        { errors: [{ pointer: '/body/moveTasksTo', message: 'Not a usable project' }] },
      )
    await ctx.require('contribute', { type: 'project', id: target.id })
  }
  // All or nothing: every open task must be one the caller may change, hidden ones counted.
  const profile = await ctx.access()
  let refused = 0
  for (const task of open) {
    const containers = await ctx.containersOf({ type: 'task', id: task.id })
    if (!atLeast(capabilityIn(profile, containers ?? []), 'contribute')) refused++
  }
  if (refused > 0)
    throw new ProblemError(
      'capability_required',
      `${refused} of the project's ${open.length} open tasks need the \`contribute\` capability, which you lack on them (some may be tasks you cannot see). Use \`openTasks: "keep"\`, or ask someone who may change them.`,
      { extensions: { capability: 'contribute', refusedTasks: refused } },
    )
  const canceledState = new Map<string, StateId>()
  for (const task of open) {
    if (choice.openTasks === 'move') {
      await updateTask(ctx, task.id, { projectId: choice.moveTasksTo! })
      continue
    }
    if (!canceledState.has(task.teamId)) {
      const states = await ctx.store.states.listForTeam(currentOrg(ctx).id, task.teamId, {
        includeArchived: false,
      })
      const state = states.find((s) => s.category === 'canceled')
      if (!state)
        throw new ProblemError('conflict', `Team ${task.teamId} has no active canceled workflow state.`)
      canceledState.set(task.teamId, state.id)
    }
    await updateTask(ctx, task.id, { stateId: canceledState.get(task.teamId)! })
  }
}

import type { LabelId, MemberId, ProjectId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { addProjectLabel, addProjectMember } from '../projects/members/members.ts'
import type { Project } from '../projects/schemas.ts'
import { createProject, requireProject } from '../projects/service.ts'
import { requireTask } from '../tasks/require-task.ts'
import { listTasks, setTaskArchived, updateTask } from '../tasks/service.ts'
import { buildProject, projectSkeleton } from './templates.ts'

const NAME_MAX = 200
const clip = (name: string) => (name.length > NAME_MAX ? `${name.slice(0, NAME_MAX - 1)}…` : name)

export interface DuplicateProjectInput {
  name?: string
  startDate?: string
  tasks?: boolean
  members?: boolean
}

/**
 * `projects.duplicate`: a new project with the source's settings, labels, milestones and (unless
 * `tasks` is false) its open tasks as a skeleton, as the caller sees them, every date moved so the
 * copy starts on `startDate` (default today, UTC); the members too unless `members` is false. Built
 * through the services `projects.saveAsTemplate` and `templates.apply` use, so their rules hold.
 */
export async function duplicateProject(
  ctx: OperationContext,
  projectId: ProjectId,
  input: DuplicateProjectInput,
): Promise<Project> {
  const source = await requireProject(ctx, projectId)
  if (source.teamIds.length === 0) {
    throw new ProblemError('conflict', 'You see none of the project’s teams, so a copy would have none.')
  }
  const skeleton = await projectSkeleton(ctx, source, { openOnly: true, tasks: input.tasks !== false })
  const { project } = await buildProject(ctx, skeleton, {
    teamIds: source.teamIds as TeamId[],
    name: input.name ?? clip(`Copy of ${source.name}`),
    startDate: input.startDate ?? ctx.now.slice(0, 10),
    fields: {
      icon: source.icon,
      color: source.color,
      priority: source.priority,
      leadId: source.leadId as MemberId | null,
      updateCadence: source.updateCadence,
      updateWeekday: source.updateWeekday,
    },
  })
  const id = project.id as ProjectId
  for (const labelId of source.labelIds) await addProjectLabel(ctx, id, labelId as LabelId)
  if (input.members !== false) {
    let after: string | null = null
    do {
      const page = await ctx.store.projects.listMembers(source.orgId, source.id as ProjectId, {
        sort: 'id',
        direction: 'asc',
        after: after === null ? null : { value: after, id: after },
        limit: 100,
      })
      for (const m of page.slice(0, 100)) await addProjectMember(ctx, id, m.memberId as MemberId)
      after = page.length > 100 ? page[99]!.memberId : null
    } while (after !== null)
  }
  return requireProject(ctx, id)
}

/**
 * `tasks.convertToProject`: a project from a task that grew. It takes the task's title, description
 * and priority; the subtasks the caller can see become its top-level tasks; the task is archived
 * (any subtask the caller cannot see is detached, not archived) and the project records it.
 */
export async function convertTaskToProject(
  ctx: OperationContext,
  taskId: TaskId,
  input: { name?: string; teamIds?: TeamId[] },
): Promise<Project> {
  const task = await requireTask(ctx, taskId)
  if (task.archivedAt) throw new ProblemError('archived', 'The task is archived; restore it first.')
  const teamIds = input.teamIds ?? [task.teamId as TeamId]
  const project = await createProject(ctx, {
    name: input.name ?? clip(task.title),
    description: task.description,
    priority: task.priority,
    teamIds,
    convertedFromTaskId: task.id as TaskId,
  })
  const subtasks = await listTasks(ctx, { parentId: task.id, limit: 200 })
  if (subtasks.nextCursor) throw new ProblemError('conflict', 'At most 200 subtasks move into the project.')
  for (const child of subtasks.data) {
    await ctx.require('contribute', { type: 'task', id: child.id })
    await updateTask(ctx, child.id as TaskId, { parentId: null, projectId: project.id as ProjectId })
  }
  await setTaskArchived(ctx, task.id as TaskId, true, 'detach')
  return requireProject(ctx, project.id as ProjectId)
}

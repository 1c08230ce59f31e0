import { changesOfFields } from '../kernel/history-entry.ts'
import type { ProjectId, ProjectStatusId } from '../kernel/ids.ts'
import { lifecycleStamps } from '../kernel/lifecycle.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { changesOf, currentOrg } from '../orgs/service.ts'
import { type ClosingChoice, settleOpenTasks } from './closing.ts'
import { PROJECT_HISTORY_FIELDS, recordProjectHistory } from './history-records.ts'
import { emitProject, unscopedProject } from './project-records.ts'
import type { Project, ProjectStatus } from './schemas.ts'
import { requireProject } from './service.ts'
import { ensureProjectStatuses } from './statuses.ts'

export type ClosedCategory = 'completed' | 'canceled'

export interface CloseInput extends ClosingChoice {
  statusId?: ProjectStatusId
  reason?: string
}

/**
 * `projects.complete` / `projects.cancel`: moves an open project into a status of `category` (the one
 * named, else the first active one), settling its open tasks as `openTasks` says (closing.ts: 409
 * `open_work` without it while open tasks exist). A project already completed or canceled answers
 * 409 `conflict`: reopening is a `projects.update` into an open status. Milestones are left as they
 * are: their status is computed from their tasks. Emits `project.completed` or `project.canceled`.
 */
export async function closeProject(
  ctx: OperationContext,
  projectId: ProjectId,
  category: ClosedCategory,
  { statusId, reason, openTasks, moveTasksTo }: CloseInput,
): Promise<Project> {
  const project = await requireProject(ctx, projectId)
  if (project.archivedAt) throw new ProblemError('archived', 'The project is archived; restore it first.')
  if (project.statusCategory === 'completed' || project.statusCategory === 'canceled')
    throw new ProblemError(
      'conflict',
      `The project is already ${project.statusCategory}; move it into an open status with \`projects.update\` to reopen it.`,
      { extensions: { statusCategory: project.statusCategory } },
    )
  const status = await closingStatus(ctx, category, statusId)
  await settleOpenTasks(ctx, project, category, { openTasks, moveTasksTo })
  const stamps = lifecycleStamps(project.statusCategory, category, project, ctx.now)
  await ctx.store.projects.update(project.orgId, project.id, {
    statusId: status.id,
    ...stamps,
    updatedAt: ctx.now,
  })
  const next = await unscopedProject(ctx, project.id)
  const changes = changesOf(project, { statusId: status.id, ...stamps })
  emitProject(ctx, `project.${category}`, next, {
    project: next,
    changes,
    openTasks: openTasks ?? null,
    ...(reason ? { reason } : {}),
  })
  await recordProjectHistory(
    ctx,
    project,
    changesOfFields(PROJECT_HISTORY_FIELDS, project, { statusId: status.id, ...stamps }),
  )
  return requireProject(ctx, project.id)
}

async function closingStatus(
  ctx: OperationContext,
  category: ClosedCategory,
  statusId: ProjectStatusId | undefined,
): Promise<ProjectStatus> {
  await ensureProjectStatuses(ctx)
  const active = await ctx.store.projectStatuses.active(currentOrg(ctx).id)
  const status = statusId
    ? active.find((s) => s.id === statusId)
    : active.find((s) => s.category === category)
  if (!status || status.category !== category)
    throw new ProblemError(
      'reference_not_found',
      statusId
        ? `The status is not an active \`${category}\` project status of the org.`
        : `The org has no active \`${category}\` project status.`,
      { errors: [{ pointer: '/body/statusId', message: `Not an active ${category} status` }] },
    )
  return status
}

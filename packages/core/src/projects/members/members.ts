import { currentOrg } from '../../kernel/context.ts'
import type { LabelId, MemberId, ProjectId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { containerLabel, requireLabelToRemove } from '../../labels/container-labels.ts'
import { recordProjectHistory } from '../history/records.ts'
import { emitProject, unscopedProject } from '../project-records.ts'
import type { Project, ProjectMember } from '../schemas.ts'
import { requireProject } from '../service.ts'
import { joinProject } from './membership.ts'

/** The project's members, by member id; the lead is one of them. */
export async function listProjectMembers(
  ctx: OperationContext,
  projectId: ProjectId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ProjectMember>> {
  const project = await requireProject(ctx, projectId)
  // Keyed by member id: the page reader expects it as `id`.
  const page = await readPage(ctx, {
    scope: ['projects.members.list', project.orgId, project.id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (m: ProjectMember & { id: string }) => m.id,
    fetch: async (p) =>
      (await ctx.store.projects.listMembers(project.orgId, project.id, p)).map((m) => ({
        ...m,
        id: m.memberId,
      })),
  })
  return { data: page.data.map(({ id: _id, ...m }) => m), nextCursor: page.nextCursor }
}

/** Adds an active member of the org; adding one who is a member already changes nothing. */
export async function addProjectMember(
  ctx: OperationContext,
  projectId: ProjectId,
  memberId: MemberId,
): Promise<ProjectMember> {
  const project = await requireProject(ctx, projectId)
  const member = await ctx.store.members.get(project.orgId, memberId)
  if (member?.status !== 'active') throw notFound('Member')
  await joinProject(ctx, project, memberId)
  return (await ctx.store.projects.getMember(project.orgId, project.id, memberId))!
}

/** Takes a member off the project; the lead stays a member until another lead is set. */
export async function removeProjectMember(
  ctx: OperationContext,
  projectId: ProjectId,
  memberId: MemberId,
): Promise<void> {
  const project = await requireProject(ctx, projectId)
  if (project.leadId === memberId) {
    throw new ProblemError(
      'conflict',
      'The lead is a member of the project; set another lead (or none) first.',
    )
  }
  if (!(await ctx.store.projects.removeMember(project.orgId, project.id, memberId))) return
  emitProject(ctx, 'project.member_removed', await unscopedProject(ctx, project.id), {
    projectId: project.id,
    memberId,
  })
  await recordProjectHistory(ctx, project, [{ field: 'members', before: memberId, after: null }])
}

/**
 * Puts an org label on the project (team labels apply to one team's tasks, a project spans teams).
 * A label of a group replaces the project's other label of that group, as on tasks.
 */
export async function addProjectLabel(
  ctx: OperationContext,
  projectId: ProjectId,
  labelId: LabelId,
): Promise<Project> {
  const project = await requireProject(ctx, projectId)
  if (project.labelIds.includes(labelId)) return project
  const { label, replaces } = await containerLabel(ctx, project.orgId, labelId, project.labelIds)
  for (const otherId of replaces) await ctx.store.projects.removeLabel(project.orgId, project.id, otherId)
  await ctx.store.projects.addLabel(project.orgId, project.id, label.id, ctx.now)
  return labelsChanged(ctx, project)
}

/** Takes a label off the project; one it does not carry changes nothing. */
export async function removeProjectLabel(
  ctx: OperationContext,
  projectId: ProjectId,
  labelId: LabelId,
): Promise<void> {
  const project = await requireProject(ctx, projectId)
  await requireLabelToRemove(ctx, currentOrg(ctx).id, labelId)
  if (await ctx.store.projects.removeLabel(project.orgId, project.id, labelId))
    await labelsChanged(ctx, project)
}

async function labelsChanged(ctx: OperationContext, before: Project): Promise<Project> {
  await ctx.store.projects.update(before.orgId, before.id, { updatedAt: ctx.now })
  const next = await unscopedProject(ctx, before.id)
  const change = { before: before.labelIds, after: next.labelIds }
  emitProject(ctx, 'project.updated', next, { project: next, changes: { labelIds: change } })
  await recordProjectHistory(ctx, before, [{ field: 'labelIds', ...change }])
  return requireProject(ctx, before.id)
}

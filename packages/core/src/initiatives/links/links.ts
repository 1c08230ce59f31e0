import type { InitiativeId, MemberId, ProjectId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { requireProject } from '../../projects/service.ts'
import { recordHistory } from '../history/history.ts'
import type { InitiativeMember, InitiativeProject } from '../schemas.ts'
import { activeMember, emitInitiative, requireInitiative, unscoped, usable } from '../service.ts'

/** The initiative's linked projects the caller can view, in link order. */
export async function listInitiativeProjects(
  ctx: OperationContext,
  id: InitiativeId,
  query: { cursor?: string; limit?: number },
): Promise<Page<InitiativeProject>> {
  const initiative = await requireInitiative(ctx, id)
  const page = await readPage(ctx, {
    scope: ['initiatives.projects.list', initiative.orgId, initiative.id],
    query,
    sort: 'position',
    direction: 'asc',
    keyOf: (l: InitiativeProject & { id: string }) => l.position,
    fetch: async (p) =>
      (await ctx.store.initiatives.listProjects(initiative.orgId, initiative.id, p, await ctx.scope())).map(
        (l) => ({ ...l, id: l.projectId }),
      ),
  })
  return { ...page, data: page.data.map(({ id: _, ...l }) => l) }
}

/**
 * Links a project after the others. A link lets whoever holds the initiative reach the project, so it
 * needs `manage` on the project besides `contribute` on the initiative. Idempotent.
 */
export async function addInitiativeProject(
  ctx: OperationContext,
  id: InitiativeId,
  projectId: ProjectId,
): Promise<InitiativeProject> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  const project = await requireProject(ctx, projectId)
  await ctx.require('manage', { type: 'project', id: project.id })
  if (await ctx.store.initiatives.addProject(initiative.orgId, initiative.id, project.id, ctx.now)) {
    await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
    await recordHistory(ctx, initiative.id, { action: 'project_added', changes: { projectId: project.id } })
    emitInitiative(ctx, 'initiative.project_added', await unscoped(ctx, initiative.id), {
      initiativeId: initiative.id,
      projectId: project.id,
    })
  }
  return (await ctx.store.initiatives.projectLink(initiative.orgId, initiative.id, project.id))!
}

export async function removeInitiativeProject(
  ctx: OperationContext,
  id: InitiativeId,
  projectId: ProjectId,
): Promise<void> {
  const initiative = await requireInitiative(ctx, id)
  const project = await requireProject(ctx, projectId)
  if (!(await ctx.store.initiatives.removeProject(initiative.orgId, initiative.id, project.id))) return
  await ctx.store.initiatives.update(initiative.orgId, initiative.id, { updatedAt: ctx.now })
  await recordHistory(ctx, initiative.id, { action: 'project_removed', changes: { projectId: project.id } })
  emitInitiative(ctx, 'initiative.project_removed', await unscoped(ctx, initiative.id), {
    initiativeId: initiative.id,
    projectId: project.id,
  })
}

export async function listInitiativeMembers(
  ctx: OperationContext,
  id: InitiativeId,
  query: { cursor?: string; limit?: number },
): Promise<Page<InitiativeMember>> {
  const initiative = await requireInitiative(ctx, id)
  const page = await readPage(ctx, {
    scope: ['initiatives.members.list', initiative.orgId, initiative.id],
    query,
    sort: 'addedAt',
    direction: 'asc',
    keyOf: (m: InitiativeMember & { id: string }) => m.addedAt,
    fetch: async (p) =>
      (await ctx.store.initiatives.listMembers(initiative.orgId, initiative.id, p)).map((m) => ({
        ...m,
        id: m.memberId,
      })),
  })
  return { ...page, data: page.data.map(({ id: _, ...m }) => m) }
}

/** Adds an active member of the org; idempotent. */
export async function addInitiativeMember(
  ctx: OperationContext,
  id: InitiativeId,
  memberId: MemberId,
): Promise<InitiativeMember> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  await activeMember(ctx, memberId, '/params/memberId')
  if (await ctx.store.initiatives.addMember(initiative.orgId, initiative.id, memberId, ctx.now)) {
    await recordHistory(ctx, initiative.id, { action: 'member_added', changes: { memberId } })
    emitInitiative(ctx, 'initiative.member_added', initiative, { initiativeId: initiative.id, memberId })
  }
  return (await ctx.store.initiatives.member(initiative.orgId, initiative.id, memberId))!
}

export async function removeInitiativeMember(
  ctx: OperationContext,
  id: InitiativeId,
  memberId: MemberId,
): Promise<void> {
  const initiative = await requireInitiative(ctx, id)
  if (!(await ctx.store.initiatives.removeMember(initiative.orgId, initiative.id, memberId))) return
  await recordHistory(ctx, initiative.id, { action: 'member_removed', changes: { memberId } })
  emitInitiative(ctx, 'initiative.member_removed', initiative, { initiativeId: initiative.id, memberId })
}

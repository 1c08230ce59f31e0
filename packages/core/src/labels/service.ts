import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { type LabelId, newId, type OrgId, type TaskId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { archivedFilter, requireTeam } from '../teams/service.ts'
import { type Label, labelNameKey } from './schemas.ts'
import type { LabelFilter } from './storage.ts'

export const DEFAULT_LABEL_COLOR = '#95a2b3'

export interface LabelFields {
  name?: string
  color?: string
  description?: string | null
  parentId?: LabelId | null
}

export async function requireLabel(ctx: OperationContext, labelId: LabelId): Promise<Label> {
  const label = await ctx.store.labels.get(currentOrg(ctx).id, labelId, await ctx.scope())
  if (!label) throw notFound('Label')
  return label
}

export async function listLabels(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    teamId?: TeamId
    parentId?: LabelId
    archived?: 'exclude' | 'only' | 'include'
  },
): Promise<Page<Label>> {
  const orgId = currentOrg(ctx).id
  const filter: LabelFilter = { archived: archivedFilter(query.archived) }
  if (query.teamId) filter.appliesToTeamId = (await requireTeam(ctx, query.teamId)).id
  if (query.parentId) filter.parentId = query.parentId
  return readPage(ctx, {
    scope: ['labels.list', orgId, filter],
    query,
    sort: 'name',
    direction: 'asc',
    keyOf: (l: Label) => labelNameKey(l.name),
    fetch: async (page) => ctx.store.labels.list(orgId, filter, page, await ctx.scope()),
  })
}

export async function createLabel(
  ctx: OperationContext,
  input: LabelFields & { name: string; teamId?: TeamId | null; isGroup?: boolean },
): Promise<Label> {
  const orgId = currentOrg(ctx).id
  const teamId = input.teamId ?? null
  if (teamId) {
    const team = await requireTeam(ctx, teamId)
    if (team.archivedAt) throw new ProblemError('archived', 'The team is archived; restore it first.')
  }
  await lockNames(ctx)
  await assertNameFree(ctx, teamId, input.name)
  const isGroup = input.isGroup ?? false
  if (input.parentId) await requireGroup(ctx, input.parentId, teamId, isGroup)
  const label: Label = {
    id: newId('LabelId'),
    orgId,
    teamId,
    parentId: input.parentId ?? null,
    isGroup,
    name: input.name,
    color: input.color ?? DEFAULT_LABEL_COLOR,
    description: input.description ?? null,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.labels.insert(label)
  emitLabel(ctx, 'label.created', label)
  return label
}

export async function updateLabel(
  ctx: OperationContext,
  labelId: LabelId,
  fields: LabelFields,
): Promise<Label> {
  const label = await requireLabel(ctx, labelId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && label[k as keyof Label] !== v),
  ) as LabelFields
  if (Object.keys(changed).length === 0) return label
  if (changed.name !== undefined && !label.archivedAt) {
    await lockNames(ctx)
    await assertNameFree(ctx, label.teamId, changed.name, label.id)
  }
  if (changed.parentId) {
    await requireGroup(ctx, changed.parentId, label.teamId, label.isGroup)
    // Moving a label into a group must not leave a task with two labels of that group.
    const sharing = await ctx.store.labels.countTasksSharingGroup(label.orgId, label.id, changed.parentId)
    if (sharing > 0) {
      throw new ProblemError(
        'label_group_conflict',
        `${sharing} task(s) carry this label and another label of the group; remove one first.`,
        { extensions: { taskCount: sharing } },
      )
    }
  }
  return changeLabel(ctx, label, changed, 'label.updated')
}

export async function setLabelArchived(
  ctx: OperationContext,
  labelId: LabelId,
  archived: boolean,
): Promise<Label> {
  const label = await requireLabel(ctx, labelId)
  if (Boolean(label.archivedAt) === archived) return label
  // A restored label takes its name back only if no active label of its scope took it meanwhile.
  if (!archived) {
    await lockNames(ctx)
    await assertNameFree(ctx, label.teamId, label.name, label.id)
  }
  return changeLabel(
    ctx,
    label,
    { archivedAt: archived ? ctx.now : null },
    archived ? 'label.archived' : 'label.restored',
  )
}

export async function deleteLabel(ctx: OperationContext, labelId: LabelId): Promise<void> {
  const label = await requireLabel(ctx, labelId)
  const taskCount = await ctx.store.labels.delete(label.orgId, label.id)
  ctx.emit({
    kind: 'label.deleted',
    resourceType: 'label',
    resourceId: label.id,
    teamId: label.teamId,
    data: { id: label.id, name: label.name, taskCount },
  })
}

/**
 * Takes off a task the labels of teams other than `teamId` (after a move to that team, as Linear
 * does): they do not apply there. Returns whether any was taken off.
 */
export async function dropLabelsOfOtherTeams(
  ctx: OperationContext,
  task: { id: TaskId; orgId: OrgId; labelIds: readonly LabelId[] },
  teamId: TeamId,
): Promise<boolean> {
  let dropped = false
  for (const labelId of task.labelIds) {
    const label = await ctx.store.labels.get(task.orgId, labelId, UNSCOPED)
    if (label && !appliesTo(label, teamId)) {
      dropped = (await ctx.store.labels.removeFromTask(task.orgId, task.id, labelId)) || dropped
    }
  }
  return dropped
}

/** Whether a label may be put on a task of `teamId`: an org label, or a label of that team. */
export function appliesTo(label: Label, teamId: TeamId): boolean {
  return label.teamId === null || label.teamId === teamId
}

async function changeLabel(
  ctx: OperationContext,
  label: Label,
  changed: Partial<Label>,
  kind: string,
): Promise<Label> {
  await ctx.store.labels.update(label.orgId, label.id, { ...changed, updatedAt: ctx.now })
  const next = { ...label, ...changed, updatedAt: ctx.now }
  ctx.emit({
    kind,
    resourceType: 'label',
    resourceId: label.id,
    teamId: label.teamId,
    data: { label: next, changes: changesOf(label, changed) },
  })
  return next
}

function emitLabel(ctx: OperationContext, kind: string, label: Label): void {
  ctx.emit({ kind, resourceType: 'label', resourceId: label.id, teamId: label.teamId, data: { label } })
}

/** Name checks and the writes they guard run one at a time per org, so two creations cannot both pass. */
async function lockNames(ctx: OperationContext): Promise<void> {
  await ctx.store.locks.acquire(`label-names:${currentOrg(ctx).id}`)
}

async function assertNameFree(
  ctx: OperationContext,
  teamId: TeamId | null,
  name: string,
  exceptId?: LabelId,
): Promise<void> {
  const taken = await ctx.store.labels.findActiveByName(currentOrg(ctx).id, teamId, name, exceptId)
  if (taken) {
    throw new ProblemError(
      'label_name_taken',
      `The ${teamId ? 'team' : 'org'} already has an active label named \`${taken.name}\`.`,
      { errors: [{ pointer: '/body/name', message: 'Already taken in this scope' }] },
    )
  }
}

/** The group a label goes into: an active group label of the same scope; groups do not nest. */
async function requireGroup(
  ctx: OperationContext,
  parentId: LabelId,
  teamId: TeamId | null,
  isGroup: boolean,
): Promise<Label> {
  const pointer = '/body/parentId'
  if (isGroup) {
    throw new ProblemError('rule_violated', 'A label group cannot sit inside another group.', {
      errors: [{ pointer, message: 'Groups do not nest' }],
    })
  }
  const group = await ctx.store.labels.get(currentOrg(ctx).id, parentId, await ctx.scope())
  if (!group || !group.isGroup || group.archivedAt || group.teamId !== teamId) {
    throw new ProblemError(
      'reference_not_found',
      "The parent is not an active label group of the label's scope.",
      { errors: [{ pointer, message: 'Not an active group of the same org or team' }] },
    )
  }
  return group
}

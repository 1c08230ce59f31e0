import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import { newId, type UpdateId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { archivedFilter } from '../teams/service.ts'
import type { StatusUpdate, UpdateHealth, UpdateRevision, UpdateSubjectType } from './schemas.ts'
import type { FeedFilter, UpdateFilter } from './storage.ts'
import { updateSubject } from './subjects.ts'

export interface UpdateFields {
  body?: string
  health?: UpdateHealth
}

/** The org's feed: every update whose subject the caller can view (archived ones on request), newest first. */
export async function listFeed(
  ctx: OperationContext,
  query: FeedFilter & { cursor?: string; limit?: number },
): Promise<Page<StatusUpdate>> {
  const orgId = currentOrg(ctx).id
  const { cursor: _c, limit: _l, ...filter } = query
  if (filter.since && filter.until && filter.until <= filter.since) {
    throw new ProblemError('rule_violated', '`until` must be after `since`.', {
      errors: [{ pointer: '/query/until', message: 'Must be after since' }],
    })
  }
  return readPage(ctx, {
    scope: ['updates.list', orgId, filter],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (u: StatusUpdate) => u.createdAt,
    fetch: async (page) => ctx.store.updates.feed(orgId, filter, page, await ctx.scope()),
  })
}

/** The update, if the caller may view its subject; otherwise 404. */
export async function requireUpdate(ctx: OperationContext, updateId: UpdateId): Promise<StatusUpdate> {
  const update = await ctx.store.updates.get(currentOrg(ctx).id, updateId)
  if (!update) throw notFound('Update')
  try {
    await updateSubject(ctx.hook, update.subjectType).require(ctx, update.subjectId)
  } catch (e) {
    if (e instanceof ProblemError && e.code === 'not_found') throw notFound('Update')
    throw e
  }
  return update
}

export async function createUpdate(
  ctx: OperationContext,
  subjectType: UpdateSubjectType,
  subjectId: string,
  input: { body: string; health: UpdateHealth },
): Promise<StatusUpdate> {
  const kind = updateSubject(ctx.hook, subjectType)
  const subject = await kind.require(ctx, subjectId)
  if (subject.archivedAt) {
    throw new ProblemError('archived', `The ${kind.name.toLowerCase()} is archived; restore it first.`)
  }
  const update: StatusUpdate = {
    id: newId('UpdateId'),
    orgId: currentOrg(ctx).id,
    subjectType,
    subjectId: subject.id,
    body: input.body,
    health: input.health,
    authorId: ctx.actor!.id,
    progress: await kind.progress(ctx, subject.id),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    editedAt: null,
    archivedAt: null,
  }
  await ctx.store.updates.insert(update)
  await emitUpdate(ctx, 'created', update, { update })
  return update
}

/** Edits body and health; the replaced version is kept in the update's history. */
export async function updateUpdate(
  ctx: OperationContext,
  updateId: UpdateId,
  fields: UpdateFields,
): Promise<StatusUpdate> {
  const update = await editable(ctx, updateId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && update[k as keyof StatusUpdate] !== v),
  ) as UpdateFields
  if (Object.keys(changed).length === 0) return update
  const revision: UpdateRevision = {
    id: newId('UpdateRevisionId'),
    updateId: update.id,
    body: update.body,
    health: update.health,
    editorId: ctx.actor!.id,
    replacedAt: ctx.now,
  }
  await ctx.store.updates.insertRevision(update.orgId, revision)
  const patch = { ...changed, updatedAt: ctx.now, editedAt: ctx.now }
  await ctx.store.updates.update(update.orgId, update.id, patch)
  const next = { ...update, ...patch }
  await emitUpdate(ctx, 'updated', next, { update: next, changes: changesOf(update, changed) })
  return next
}

export async function setUpdateArchived(
  ctx: OperationContext,
  updateId: UpdateId,
  archived: boolean,
): Promise<StatusUpdate> {
  const update = await editable(ctx, updateId)
  if (Boolean(update.archivedAt) === archived) return update
  const patch = { archivedAt: archived ? ctx.now : null, updatedAt: ctx.now }
  await ctx.store.updates.update(update.orgId, update.id, patch)
  const next = { ...update, ...patch }
  await emitUpdate(ctx, archived ? 'archived' : 'restored', next, { update: next })
  return next
}

export async function deleteUpdate(ctx: OperationContext, updateId: UpdateId): Promise<void> {
  const update = await editable(ctx, updateId)
  await ctx.store.updates.delete(update.orgId, update.id)
  await emitUpdate(ctx, 'deleted', update, {
    id: update.id,
    subjectType: update.subjectType,
    subjectId: update.subjectId,
  })
}

/** The versions an edit replaced, newest first. */
export async function listUpdateHistory(
  ctx: OperationContext,
  updateId: UpdateId,
  query: { cursor?: string; limit?: number },
): Promise<Page<UpdateRevision>> {
  const update = await requireUpdate(ctx, updateId)
  return readPage(ctx, {
    scope: ['updates.history', update.orgId, update.id],
    query,
    sort: 'replacedAt',
    direction: 'desc',
    keyOf: (r: UpdateRevision) => r.replacedAt,
    fetch: (page) => ctx.store.updates.revisions(update.orgId, update.id, page),
  })
}

/**
 * The update, if the caller may change it: its author may (with the operation's `contribute` on the
 * subject), anyone else needs `manage` on the subject.
 */
async function editable(ctx: OperationContext, updateId: UpdateId): Promise<StatusUpdate> {
  const update = await requireUpdate(ctx, updateId)
  if (update.authorId !== ctx.actor?.id) await ctx.require('manage', { type: 'update', id: update.id })
  return update
}

/** Kinds are `<subjectType>_update.<action>`: `project_update.created`, later `program_update.created`. */
async function emitUpdate(
  ctx: OperationContext,
  action: string,
  update: StatusUpdate,
  data: Record<string, unknown>,
): Promise<void> {
  ctx.emit({
    kind: `${update.subjectType}_update.${action}`,
    resourceType: `${update.subjectType}_update`,
    resourceId: update.id,
    teamId: await updateSubject(ctx.hook, update.subjectType).eventTeam(
      ctx.store,
      update.orgId,
      update.subjectId,
    ),
    data,
  })
}

import { requireInitiative } from '../initiatives/service.ts'
import { currentOrg } from '../kernel/context.ts'
import type { InitiativeId, MemberId, ProgramId, ProjectId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { requireProgram } from '../programs/service.ts'
import { requireProject } from '../projects/service.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { RecordProperty } from './schemas.ts'
import type { RecordRef } from './storage.ts'

/** The largest value, serialised as JSON (Jira's entity property limit). */
export const PROPERTY_MAX_BYTES = 32 * 1024

/**
 * The record as the caller may view it (404 otherwise, like a missing one), with the team its
 * events are filed under: a task's team, a project's first team, none for programs and initiatives.
 */
async function requireRecord(ctx: OperationContext, ref: RecordRef): Promise<{ teamId: TeamId | null }> {
  switch (ref.type) {
    case 'task':
      return { teamId: (await requireTask(ctx, ref.id as TaskId)).teamId }
    case 'project':
      return {
        teamId: ((await requireProject(ctx, ref.id as ProjectId)).teamIds[0] ?? null) as TeamId | null,
      }
    case 'program':
      await requireProgram(ctx, ref.id as ProgramId)
      return { teamId: null }
    case 'initiative':
      await requireInitiative(ctx, ref.id as InitiativeId)
      return { teamId: null }
  }
}

/** The namespace of the calling app: the OAuth client its token was issued to ('' for none). */
const clientKeyOf = (ctx: OperationContext) => ctx.principal?.clientId ?? ''

/** A property of the calling client on a record it can view; another client's key is a 404. */
export async function getRecordProperty(
  ctx: OperationContext,
  ref: RecordRef,
  key: string,
): Promise<RecordProperty> {
  await requireRecord(ctx, ref)
  const property = await ctx.store.recordProperties.get(currentOrg(ctx).id, ref, clientKeyOf(ctx), key)
  if (!property) throw notFound('Property')
  return property
}

export async function listRecordProperties(
  ctx: OperationContext,
  ref: RecordRef,
  query: { cursor?: string; limit?: number },
): Promise<Page<RecordProperty>> {
  await requireRecord(ctx, ref)
  const orgId = currentOrg(ctx).id
  const clientKey = clientKeyOf(ctx)
  const page = await readPage(ctx, {
    scope: ['records.properties.list', orgId, ref.type, ref.id, clientKey],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (p: RecordProperty & { id: string }) => p.id,
    fetch: async (page) =>
      (await ctx.store.recordProperties.list(orgId, ref, clientKey, page)).map((p) => ({ ...p, id: p.key })),
  })
  return { data: page.data.map(({ id: _id, ...p }) => p), nextCursor: page.nextCursor }
}

/** Sets a property of the calling client (creates or replaces it); the value is at most 32 KiB of JSON. */
export async function putRecordProperty(
  ctx: OperationContext,
  ref: RecordRef,
  key: string,
  value: unknown,
): Promise<RecordProperty> {
  const { teamId } = await requireRecord(ctx, ref)
  const bytes = new TextEncoder().encode(JSON.stringify(value)).length
  if (bytes > PROPERTY_MAX_BYTES)
    throw new ProblemError(
      'payload_too_large',
      `A property value is at most ${PROPERTY_MAX_BYTES} bytes of JSON; this one is ${bytes}.`,
      { extensions: { maxBytes: PROPERTY_MAX_BYTES } },
    )
  const clientId = ctx.principal?.clientId ?? null
  const property: RecordProperty = {
    recordType: ref.type,
    recordId: ref.id,
    key,
    clientId,
    value,
    updatedBy: ctx.actor!.id as MemberId,
    updatedAt: ctx.now,
  }
  await ctx.store.recordProperties.put(currentOrg(ctx).id, ref, clientKeyOf(ctx), property)
  emitProperty(ctx, 'record_property.updated', property, teamId)
  return property
}

export async function deleteRecordProperty(
  ctx: OperationContext,
  ref: RecordRef,
  key: string,
): Promise<void> {
  const { teamId } = await requireRecord(ctx, ref)
  const property = await ctx.store.recordProperties.get(currentOrg(ctx).id, ref, clientKeyOf(ctx), key)
  if (!property) throw notFound('Property')
  await ctx.store.recordProperties.delete(currentOrg(ctx).id, ref, clientKeyOf(ctx), key)
  emitProperty(ctx, 'record_property.deleted', property, teamId)
}

/**
 * Filed under the record's team, so whoever can read the record's events reads these. They name the
 * key and the client, never the value: values stay with the client that wrote them.
 */
function emitProperty(
  ctx: OperationContext,
  kind: 'record_property.updated' | 'record_property.deleted',
  p: RecordProperty,
  teamId: TeamId | null,
) {
  ctx.emit({
    kind,
    resourceType: 'record_property',
    resourceId: p.recordId,
    teamId,
    data: { recordType: p.recordType, recordId: p.recordId, key: p.key, clientId: p.clientId },
  })
}

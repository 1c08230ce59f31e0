import { type TProperties, Type } from '@sinclair/typebox'
import { findActor } from '../access/actors.ts'
import { ActorIdSchema } from '../access/schemas.ts'
import { withArticle } from '../kernel/article.ts'
import { currentOrg } from '../kernel/context.ts'
import type { ActorId, OrgId, TeamId } from '../kernel/ids.ts'
import {
  type AnyOperation,
  type CapabilityTarget,
  declareOperation,
  type OperationContext,
} from '../kernel/operation.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import { paramsOf, subListOperation } from '../kernel/resource.ts'
import { Timestamp } from '../kernel/schema-types.ts'

/**
 * Following a record other than a task (tasks keep their own subscribers): a project now; programs
 * and initiatives add a {@link Followable} entry and get the same operations, table and notifications.
 */
export interface Follower {
  recordType: string
  recordId: string
  actorId: ActorId
  addedAt: string
}

export interface FollowerRepo {
  /** Returns false, writing nothing, when the actor follows the record already. */
  add(follower: Follower & { orgId: OrgId }): Promise<boolean>
  /** Returns false when the actor did not follow it. */
  remove(orgId: OrgId, recordType: string, recordId: string, actorId: ActorId): Promise<boolean>
  /** By actor id. */
  list(orgId: OrgId, recordType: string, recordId: string, page: PageRequest<'actorId'>): Promise<Follower[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Who follows projects (later programs and initiatives). */
    followers: FollowerRepo
  }
}

/** One kind of record people can follow. */
export interface Followable {
  /** `project`: the follower rows' `recordType`, and events `project_subscriber.*`. */
  recordType: string
  /** For problem details and summaries: `Project`. */
  name: string
  /** Operation ids are `<plural>.subscribers.list|add|remove`. */
  plural: string
  tag: string
  /** The record's path, e.g. `/v1/orgs/{orgId}/projects/{projectId}`, and its id parameter. */
  recordPath: string
  idParam: string
  target(id: string): CapabilityTarget
  /** The record as the caller may view it (404 otherwise), with the team its events are filed under. */
  require(ctx: OperationContext, id: string): Promise<{ id: string; teamId: TeamId | null }>
}

export const FollowerSchema = Type.Object(
  {
    recordType: Type.String({ description: 'The kind of record followed (`project`).' }),
    recordId: Type.String({ description: 'Its id.' }),
    actorId: ActorIdSchema,
    addedAt: Timestamp('When the actor subscribed.'),
  },
  { $id: 'Subscriber', additionalProperties: false },
)

/** Follows without checks or events: a record's creator and lead, as part of that change. */
export async function autoFollow(
  ctx: OperationContext,
  recordType: string,
  recordId: string,
  actorId: ActorId,
): Promise<void> {
  await ctx.store.followers.add({
    orgId: currentOrg(ctx).id,
    recordType,
    recordId,
    actorId,
    addedAt: ctx.now,
  })
}

/** Every follower of a record (a record has a handful): what the notifier reads. */
export async function allFollowers(
  store: OperationContext['store'],
  orgId: OrgId,
  recordType: string,
  recordId: string,
): Promise<ActorId[]> {
  const rows = await store.followers.list(orgId, recordType, recordId, {
    sort: 'actorId',
    direction: 'asc',
    after: null,
    limit: 10_000,
  })
  return rows.map((r) => r.actorId)
}

/** `list`, `add` (PUT, idempotent) and `remove` of a followable record's subscribers. */
export function followerOperations(f: Followable): AnyOperation[] {
  const itemPath = `${f.recordPath}/subscribers/{actorId}`
  const params = Type.Object({ ...paramsOf(f.recordPath), actorId: ActorIdSchema } as TProperties, {
    additionalProperties: false,
  })
  const onRecord = ({ params }: { params: Record<string, string> }) => f.target(params[f.idParam]!)
  const noun = f.name.toLowerCase()
  return [
    subListOperation({
      id: `${f.plural}.subscribers.list`,
      path: `${f.recordPath}/subscribers`,
      tag: f.tag,
      summary: `List ${withArticle(noun)}'s subscribers`,
      description: `By actor id. Subscribers are notified of what happens to the ${noun}; its creator and lead are subscribed when it is created.`,
      item: FollowerSchema,
      itemName: 'Subscriber',
      examples: { response: { data: [example(f)], nextCursor: null } },
      run: (ctx, p, query) => listFollowers(ctx, f, p[f.idParam]!, query),
    }),
    declareOperation({
      id: `${f.plural}.subscribers.add`,
      method: 'PUT',
      path: itemPath,
      tag: f.tag,
      scope: 'work:write',
      summary: `Subscribe to ${withArticle(noun)}`,
      requires: `\`comment\` on the ${noun} to subscribe yourself, \`manage\` to subscribe someone else`,
      description: `Subscribing oneself needs \`comment\` on the ${noun}; subscribing someone else needs \`manage\`. Idempotent: subscribing again changes nothing, emits nothing and answers the same record (same \`addedAt\`).`,
      params,
      response: FollowerSchema,
      status: 200,
      capability: 'comment',
      target: onRecord,
      errors: ['not_found'],
      examples: { response: example(f) },
      run: (ctx, { params: p }) => follow(ctx, f, p[f.idParam], p.actorId),
    }),
    declareOperation({
      id: `${f.plural}.subscribers.remove`,
      method: 'DELETE',
      path: itemPath,
      tag: f.tag,
      scope: 'work:write',
      summary: `Unsubscribe from ${withArticle(noun)}`,
      requires: `\`comment\` on the ${noun} to unsubscribe yourself, \`manage\` to unsubscribe someone else`,
      description:
        'Oneself with `comment`; someone else with `manage`. Idempotent: someone not subscribed changes nothing (204, no event).',
      params,
      response: null,
      status: 204,
      capability: 'comment',
      target: onRecord,
      errors: ['not_found'],
      run: async (ctx, { params: p }) => {
        await unfollow(ctx, f, p[f.idParam], p.actorId)
        return undefined
      },
    }),
  ]
}

function example(f: Followable) {
  return {
    recordType: f.recordType,
    recordId: `${f.recordType.slice(0, 4)}_01JD3Q2R4S5T6V7W8X9YZABCDE`,
    actorId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
    addedAt: '2030-01-13T16:00:00.000Z',
  }
}

async function follow(ctx: OperationContext, f: Followable, id: string, actorId: ActorId): Promise<Follower> {
  const record = await f.require(ctx, id)
  await requireOtherRights(ctx, f, id, actorId)
  const orgId = currentOrg(ctx).id
  const follower: Follower = { recordType: f.recordType, recordId: record.id, actorId, addedAt: ctx.now }
  if (await ctx.store.followers.add({ ...follower, orgId })) {
    emit(ctx, f, record, actorId, true)
    return follower
  }
  const existing = await ctx.store.followers.list(orgId, f.recordType, record.id, {
    sort: 'actorId',
    direction: 'asc',
    after: null,
    limit: 10_000,
  })
  return existing.find((x) => x.actorId === actorId) ?? follower
}

async function unfollow(ctx: OperationContext, f: Followable, id: string, actorId: ActorId): Promise<void> {
  const record = await f.require(ctx, id)
  await requireOtherRights(ctx, f, id, actorId)
  if (!(await ctx.store.followers.remove(currentOrg(ctx).id, f.recordType, record.id, actorId))) return
  emit(ctx, f, record, actorId, false)
}

async function listFollowers(
  ctx: OperationContext,
  f: Followable,
  id: string,
  query: { cursor?: string; limit?: number },
) {
  const record = await f.require(ctx, id)
  const orgId = currentOrg(ctx).id
  const page = await readPage(ctx, {
    scope: [`${f.plural}.subscribers.list`, orgId, record.id],
    query,
    sort: 'actorId' as const,
    direction: 'asc',
    keyOf: (s: Follower & { id: string }) => s.id,
    fetch: async (p) =>
      (await ctx.store.followers.list(orgId, f.recordType, record.id, p)).map((s) => ({
        ...s,
        id: s.actorId,
      })),
  })
  return { data: page.data.map(({ id: _id, ...s }) => s), nextCursor: page.nextCursor }
}

/** Someone else must be an active member or an agent of the org, and the caller needs `manage`. */
async function requireOtherRights(ctx: OperationContext, f: Followable, id: string, actorId: ActorId) {
  if (actorId === ctx.actor!.id) return
  const orgId = currentOrg(ctx).id
  if (!(await findActor(ctx, orgId, actorId))) throw notFound('Actor')
  await ctx.require('manage', f.target(id))
}

function emit(
  ctx: OperationContext,
  f: Followable,
  record: { id: string; teamId: TeamId | null },
  actorId: ActorId,
  added: boolean,
) {
  ctx.emit({
    kind: `${f.recordType}_subscriber.${added ? 'created' : 'deleted'}`,
    resourceType: `${f.recordType}_subscriber`,
    resourceId: record.id,
    teamId: record.teamId,
    data: { recordType: f.recordType, recordId: record.id, actorId },
  })
}

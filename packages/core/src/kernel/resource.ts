import { type Static, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { withArticle } from './article.ts'
import type { Capability } from './capabilities.ts'
import { type IdBrand, IdSchema } from './ids.ts'
import {
  type AnyOperation,
  type CapabilityTarget,
  declareOperation,
  type OperationContext,
  type OperationExamples,
} from './operation.ts'
import { PageQuery } from './pagination.ts'
import type { ProblemCode } from './problems.ts'
import { PageOf } from './schema-types.ts'

type Params = Record<string, string>
type PageQueryShape = { cursor?: string; limit?: number }

/**
 * A resource declared once, from which the usual operation shapes are derived: list, get, create,
 * update, archive, restore and delete. Only the shapes given a handler become operations.
 */
export interface ResourceDescriptor<
  S extends TObject,
  C extends TSchema,
  U extends TSchema,
  L extends TProperties,
> {
  /** Singular noun, for summaries and the page schema's name: `team`, `time entry`. */
  name: string
  /** The article summaries put before `name`, when its first letter misleads `withArticle` (`a user`). */
  article?: 'a' | 'an'
  /** Plural, for operation ids: `teams` gives `teams.list`, `teams.get`, ... */
  plural: string
  /**
   * The prefix of the list and create ids when the collection hangs under another record and the
   * item path does not (`projects.relations` at `/projects/{projectId}/relations`, while the item
   * operations are `projectRelations.*` at `/project-relations/{relationId}`). Defaults to `plural`.
   */
  collectionPlural?: string
  /**
   * Summaries that replace the derived ones ("List teams", "Create a team"). A list whose `plural` is
   * not an English word (`timeEntries`, `tasks.links`) must name itself here: "List a task's links".
   */
  summaries?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore' | 'delete', string>>
  tag: string
  schema: S
  /** Collection path, e.g. `/v1/orgs/{orgId}/teams`. */
  collectionPath: string
  collectionParams?: TProperties
  /** The item's id parameter name and brand, e.g. `teamId`, `TeamId`; item path is `{itemPath}/{idParam}`. */
  idParam: string
  idBrand: IdBrand
  itemPath?: string
  /** The capability target of an item, from its params. */
  target: (params: Params) => CapabilityTarget
  createTarget?: (params: Params, body: Static<C>) => CapabilityTarget
  capabilities: Partial<Record<'create' | 'update' | 'archive' | 'restore' | 'delete', Capability>>
  createBody?: C
  updateBody?: U
  listQuery?: L
  errors?: Partial<Record<'list' | 'create' | 'update' | 'archive' | 'restore' | 'delete', ProblemCode[]>>
  /** What each derived shape does beyond its summary, for the reference (an update's keeps its If-Match note). */
  descriptions?: Partial<
    Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore' | 'delete', string>
  >
  /** Who may call each derived shape, where `target` reads the body (see `Operation.requires`). */
  requires?: Partial<Record<'create' | 'update' | 'archive' | 'restore' | 'delete', string>>
  /** Request and response examples per derived shape, for the reference. */
  examples?: Partial<Record<'list' | 'get' | 'create' | 'update' | 'archive' | 'restore', OperationExamples>>
  handlers: {
    list?: (
      ctx: OperationContext,
      params: Params,
      query: PageQueryShape & Static<TObject<L>>,
    ) => Promise<{ data: Static<S>[]; nextCursor: string | null }>
    get?: (ctx: OperationContext, params: Params) => Promise<Static<S>>
    create?: (ctx: OperationContext, params: Params, body: Static<C>) => Promise<Static<S>>
    update?: (ctx: OperationContext, params: Params, body: Static<U>) => Promise<Static<S>>
    archive?: (ctx: OperationContext, params: Params) => Promise<Static<S>>
    restore?: (ctx: OperationContext, params: Params) => Promise<Static<S>>
    delete?: (ctx: OperationContext, params: Params) => Promise<void>
  }
}

export function resourceOperations<
  S extends TObject,
  C extends TSchema,
  U extends TSchema,
  L extends TProperties,
>(d: ResourceDescriptor<S, C, U, L>): AnyOperation[] {
  const collectionParams = Type.Object(
    { ...paramsOf(d.collectionPath), ...d.collectionParams },
    { additionalProperties: false },
  )
  const itemBase = d.itemPath ?? d.collectionPath
  const itemPath = `${itemBase}/{${d.idParam}}`
  const itemParams = Type.Object(
    { ...paramsOf(itemBase), [d.idParam]: IdSchema(d.idBrand) },
    { additionalProperties: false },
  )
  const ops: AnyOperation[] = []
  const h = d.handlers
  const get = `${d.plural}.get`
  const one = withArticle(d.name, d.article)
  const summary = (action: keyof NonNullable<typeof d.summaries>, derived: () => string) =>
    d.summaries?.[action] ?? derived()

  if (h.list) {
    const list = h.list
    ops.push(
      declareOperation({
        id: `${d.collectionPlural ?? d.plural}.list`,
        method: 'GET',
        path: d.collectionPath,
        tag: d.tag,
        scope: 'work:read',
        summary: summary('list', () => {
          // An operation id is not a noun: "List timeEntries" would reach the reference.
          if (!/^[a-z]+$/.test(d.plural))
            throw new Error(`resourceOperations(${d.plural}): give summaries.list, the plural is not a word`)
          return `List ${d.plural}`
        }),
        description: d.descriptions?.list,
        params: collectionParams,
        query: Type.Object({ ...PageQuery, ...d.listQuery }, { additionalProperties: false }),
        response: PageOf(d.schema, pascal(d.name)),
        status: 200,
        errors: ['invalid_cursor', ...(d.errors?.list ?? [])],
        examples: d.examples?.list,
        run: (ctx: OperationContext, { params, query }: { params: Params; query: any }) =>
          list(ctx, params as Params, query as never),
      }),
    )
  }
  if (h.get) {
    const handler = h.get
    ops.push(
      declareOperation({
        id: get,
        method: 'GET',
        path: itemPath,
        tag: d.tag,
        scope: 'work:read',
        summary: summary('get', () => `Get ${one}`),
        description: d.descriptions?.get,
        params: itemParams,
        response: d.schema,
        status: 200,
        errors: ['not_found'],
        etag: true,
        examples: d.examples?.get,
        run: (ctx, { params }) => handler(ctx, params as Params),
      }),
    )
  }
  if (h.create && d.createBody) {
    const handler = h.create
    const target = d.createTarget ?? ((params: Params) => d.target(params))
    ops.push(
      declareOperation({
        id: `${d.collectionPlural ?? d.plural}.create`,
        method: 'POST',
        path: d.collectionPath,
        tag: d.tag,
        scope: 'work:write',
        summary: summary('create', () => `Create ${one}`),
        description: d.descriptions?.create,
        params: collectionParams,
        body: d.createBody,
        response: d.schema,
        status: 201,
        capability: d.capabilities.create ?? 'contribute',
        target: ({ params, body }) => target(params as Params, body as Static<C>),
        requires: d.requires?.create,
        errors: d.errors?.create ?? [],
        location: h.get ? get : undefined,
        examples: d.examples?.create,
        run: (ctx, { params, body }) => handler(ctx, params as Params, body as Static<C>),
      }),
    )
  }
  // Writes to one item share their shape: path, scope, capability target, precondition, errors.
  type ItemAction = 'update' | 'archive' | 'restore' | 'delete'
  const itemWrite = (
    action: ItemAction,
    fields: Pick<AnyOperation, 'method' | 'path' | 'summary' | 'response' | 'status' | 'run'> &
      Partial<AnyOperation>,
  ) =>
    declareOperation({
      id: `${d.plural}.${action}`,
      tag: d.tag,
      scope: 'work:write',
      params: itemParams,
      capability: d.capabilities[action] ?? (action === 'delete' ? 'manage' : 'contribute'),
      target: ({ params }) => d.target(params as Params),
      errors: ['not_found', 'precondition_failed', ...(d.errors?.[action] ?? [])],
      precondition: h.get ? get : undefined,
      description: d.descriptions?.[action],
      requires: d.requires?.[action],
      examples: action === 'delete' ? undefined : d.examples?.[action],
      ...fields,
    })

  if (h.update && d.updateBody) {
    const handler = h.update
    ops.push(
      itemWrite('update', {
        method: 'PATCH',
        path: itemPath,
        summary: summary('update', () => `Update ${one}`),
        description: [
          d.descriptions?.update,
          'Fields left out stay as they are. Send `If-Match` with an ETag to update only an unchanged record.',
        ]
          .filter(Boolean)
          .join(' '),
        body: d.updateBody,
        response: d.schema,
        status: 200,
        run: (ctx, { params, body }) => handler(ctx, params as Params, body as Static<U>),
      }),
    )
  }
  for (const action of ['archive', 'restore'] as const) {
    const handler = h[action]
    if (!handler) continue
    ops.push(
      itemWrite(action, {
        method: 'POST',
        path: `${itemPath}/${action}`,
        summary: summary(action, () => `${action === 'archive' ? 'Archive' : 'Restore'} ${one}`),
        response: d.schema,
        status: 200,
        run: (ctx, { params }) => handler(ctx, params as Params),
      }),
    )
  }
  if (h.delete) {
    const handler = h.delete
    ops.push(
      itemWrite('delete', {
        method: 'DELETE',
        path: itemPath,
        summary: summary('delete', () => `Delete ${one}`),
        response: null,
        status: 204,
        run: async (ctx, { params }) => {
          await handler(ctx, params as Params)
          return undefined
        },
      }),
    )
  }
  return ops
}

const PARAM_BRANDS: Record<string, IdBrand> = {
  orgId: 'OrgId',
  teamId: 'TeamId',
  taskId: 'TaskId',
  stateId: 'StateId',
  memberId: 'MemberId',
  agentId: 'AgentId',
  cycleId: 'CycleId',
  labelId: 'LabelId',
  commentId: 'CommentId',
  reactionId: 'ReactionId',
  blockerId: 'TaskId',
  relatedTaskId: 'TaskId',
  linkId: 'LinkId',
  statusId: 'ProjectStatusId',
  projectId: 'ProjectId',
  milestoneId: 'MilestoneId',
  connectionId: 'ConnectionId',
  linkedItemId: 'LinkedItemId',
  updateId: 'UpdateId',
  viewId: 'ViewId',
  favoriteId: 'FavoriteId',
  initiativeId: 'InitiativeId',
  documentId: 'DocumentId',
  versionId: 'DocumentVersionId',
  attachmentId: 'AttachmentId',
  domainId: 'DomainId',
  exportId: 'ExportId',
  importId: 'ImportId',
  fieldId: 'CustomFieldId',
  optionId: 'CustomFieldOptionId',
  templateId: 'TemplateId',
  recurrenceId: 'RecurrenceId',
  reminderId: 'ReminderId',
  programId: 'ProgramId',
  planItemId: 'PlanItemId',
  entryId: 'TimeEntryId',
  allocationId: 'AllocationId',
  policyId: 'ApprovalPolicyId',
  awayId: 'AwayId',
}

/** The branded id schemas of a path's `{param}`s. */
export function paramsOf(path: string): TProperties {
  const props: TProperties = {}
  for (const [, name] of path.matchAll(/\{(\w+)\}/g)) {
    const brand = PARAM_BRANDS[name!]
    if (!brand) throw new Error(`No id brand known for path parameter ${name}`)
    props[name!] = IdSchema(brand)
  }
  return props
}

function pascal(name: string): string {
  return name.replace(/(^|[-_ ])(\w)/g, (_m, _s, c: string) => c.toUpperCase())
}

/**
 * A keyset-paginated list under a parent record (a task's blockers, a comment's replies): GET with
 * `work:read`, the path's ids as params, `cursor`/`limit` plus `query`, answering `{ data, nextCursor }`
 * of `item`. The service answers 404 when the caller cannot view the parent.
 */
export function subListOperation(list: {
  id: string
  path: string
  tag: string
  summary: string
  description: string
  /** The page's item schema and the name of its page schema (`TaskPage` for `Task`). */
  item: TSchema
  itemName: string
  query?: TProperties
  errors?: ProblemCode[]
  /** Who may read it, where viewing the parent is not all (see `Operation.requires`). */
  requires?: string
  examples?: OperationExamples
  run: (
    ctx: OperationContext,
    params: Params,
    query: any,
  ) => Promise<{ data: unknown[]; nextCursor: string | null }>
}): AnyOperation {
  return declareOperation({
    id: list.id,
    method: 'GET',
    path: list.path,
    tag: list.tag,
    scope: 'work:read',
    summary: list.summary,
    description: list.description,
    params: Type.Object(paramsOf(list.path), { additionalProperties: false }),
    query: Type.Object({ ...PageQuery, ...list.query }, { additionalProperties: false }),
    response: PageOf(list.item, list.itemName),
    status: 200,
    errors: ['not_found', 'invalid_cursor', ...(list.errors ?? [])],
    requires: list.requires,
    examples: list.examples,
    run: (ctx: OperationContext, { params, query }: { params: Params; query: any }) =>
      list.run(ctx, params, query) as never,
  })
}

/**
 * Undoes a link under a parent record (a program's project, a task's blocker): DELETE with
 * `work:write`, the path's ids as params, 204 with no body. `errors` defaults to `not_found`.
 */
export function unlinkOperation(unlink: {
  id: string
  path: string
  tag: string
  summary: string
  description: string
  capability: Capability
  target: NonNullable<AnyOperation['target']>
  errors?: ProblemCode[]
  run: (ctx: OperationContext, params: Params) => Promise<unknown>
}): AnyOperation {
  return declareOperation({
    id: unlink.id,
    method: 'DELETE',
    path: unlink.path,
    tag: unlink.tag,
    scope: 'work:write',
    summary: unlink.summary,
    description: unlink.description,
    params: Type.Object(paramsOf(unlink.path), { additionalProperties: false }),
    response: null,
    status: 204,
    capability: unlink.capability,
    target: unlink.target,
    errors: unlink.errors ?? ['not_found'],
    run: async (ctx: OperationContext, { params }: { params: Params }) => {
      await unlink.run(ctx, params)
      return undefined
    },
  })
}

import { Type } from '@sinclair/typebox'
import { withArticle } from '../kernel/article.ts'
import type { LinkedItemId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { lookupExample, previewExample } from './examples.ts'
import {
  getLinkedItem,
  linkItem,
  listLinkedItems,
  lookupLinkedItems,
  prepareLink,
  preparePreview,
  prepareRefresh,
  previewLinkedItem,
  refreshLinkedItem,
  sendLink,
  unlinkItem,
} from './linked-items.ts'
import { LinkedItem, LinkedItemPreview } from './schemas.ts'

const TAG = 'Connectors'
const scope = 'connectors:link' as const
const params = (path: string) => Type.Object(paramsOf(path), { additionalProperties: false })
// What linking an item takes, and what previewing it takes: a client sends one object to both.
/**
 * An http(s) URL without credentials, as the schema can say it (scheme in any case, an authority
 * without `@`); a string the WHATWG URL parser still refuses (`http://a%`) is 422 `rule_violated`.
 */
const HTTP_URL = '^[Hh][Tt][Tt][Pp][Ss]?://[^\\s/?#@]+(?:[/?#]\\S*)?$'
const UrlBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2000,
      pattern: HTTP_URL,
      description:
        "The item's URL in the other tool: http or https, without credentials; one the URL parser refuses is 422 `rule_violated`.",
    }),
  },
  {
    $id: 'LinkedItemCreate',
    additionalProperties: false,
    examples: [{ url: 'https://github.com/acme/api/issues/42' }],
  },
)
const LINK_ERRORS = [
  'already_exists',
  'rule_violated',
  'outbound_refused',
  'external_item_not_found',
  'connection_inactive',
  'provider_unavailable',
] as const
const REFRESH_ERRORS = [
  'connection_required',
  'connection_inactive',
  'outbound_refused',
  'external_item_not_found',
  'provider_unavailable',
] as const

/** A record kind that linked items can belong to, and where its items live in the API. */
export interface LinkedItemHolder {
  /** Prefix of the operation ids (`tasks.linkedItems`, `projects.linkedItems`). */
  opPrefix: string
  holder: 'task' | 'project'
  /** The path parameter naming the holder. */
  param: 'taskId' | 'projectId'
  /** The collection segment under the org (`tasks`, `projects`). */
  collection: string
  /** An id of the holder's brand for the examples. */
  exampleId: string
}

function itemExample(h: LinkedItemHolder) {
  return {
    id: 'litm_01JD3Q2R4S5T6V7W8X9YZABCDE',
    orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
    taskId: h.holder === 'task' ? h.exampleId : null,
    projectId: h.holder === 'project' ? h.exampleId : null,
    url: 'https://github.com/acme/api/issues/42',
    providerId: 'github',
    itemType: 'issue',
    title: 'Rate limits reset too early',
    state: 'open',
    assignee: 'octocat',
    externalUpdatedAt: '2026-11-24T08:00:00.000Z',
    fetchedAt: '2026-11-25T10:01:00.000Z',
    creatorId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
    createdAt: '2026-11-25T10:01:00.000Z',
  }
}

/**
 * List and link for the linked items of one holder kind, under the holder's path; every other act on
 * an item goes through the shared `linkedItems.get/refresh/delete`. Visibility and `contribute` are
 * checked on the holder.
 */
export function linkedItemOperations(h: LinkedItemHolder): AnyOperation[] {
  const items = `/v1/orgs/{orgId}/${h.collection}/{${h.param}}/linked-items`
  const of = (p: Record<string, string>) => ({ type: h.holder, id: p[h.param]! })
  const target = ({ params }: { params: Record<string, string> }) => ({
    type: h.holder,
    id: params[h.param]!,
  })
  const example = itemExample(h)
  return [
    declareOperation({
      id: `${h.opPrefix}.list`,
      method: 'GET',
      path: items,
      tag: TAG,
      scope,
      summary: `List ${withArticle(h.holder)}'s linked items`,
      description: `The items of other tools linked to the ${h.holder}, oldest first, with what was last read of each (title, state, assignee). Anyone who can view the ${h.holder} lists them.`,
      params: params(items),
      query: Type.Object(
        {
          ...PageQuery,
        },
        { additionalProperties: false },
      ),
      response: PageOf(LinkedItem, 'LinkedItem'),
      status: 200,
      errors: ['invalid_cursor'],
      examples: { response: { data: [example], nextCursor: null } },
      run: (ctx, { params, query }) => listLinkedItems(ctx, of(params), query),
    }),
    declareOperation({
      id: `${h.opPrefix}.create`,
      method: 'POST',
      path: items,
      tag: TAG,
      scope,
      summary: `Link an item of another tool to ${withArticle(h.holder)}`,
      description:
        "By URL. When a configured provider reads the URL and the caller has a connection to it, the item's title, state, assignee and update time are read through that connection; otherwise the link keeps the URL only. A URL whose host is a special-use address (loopback, private, link-local, …) is refused.",
      params: params(items),
      body: UrlBody,
      response: LinkedItem,
      status: 201,
      examples: { request: { url: example.url }, response: example },
      capability: 'contribute',
      target,
      errors: [...LINK_ERRORS],
      outbound: {
        prepare: (ctx, { params, body }) => prepareLink(ctx, of(params), (body as { url: string }).url),
        send: sendLink,
      },
      run: (ctx, { params, outbound }) => {
        const { plan, got } = outbound as never
        return linkItem(ctx, of(params), plan, got)
      },
    }),
  ]
}

const root = '/v1/orgs/{orgId}/linked-items'
const itemPath = `${root}/{linkedItemId}`
const itemTarget = ({ params }: { params: Record<string, string> }) => ({
  type: 'linked_item' as const,
  id: params.linkedItemId!,
})
const itemRule =
  'It serves the linked items of tasks and of projects alike: reading needs `view` on the task or project the ' +
  'item is linked to, a change `contribute` on it; an item of a record the caller cannot view is a 404.'
const taskItemExample = itemExample({
  opPrefix: 'tasks.linkedItems',
  holder: 'task',
  param: 'taskId',
  collection: 'tasks',
  exampleId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE',
})

/** `linkedItems.get/refresh/delete`: one set of item operations for every linked item, whatever holds it. */
export const linkedItemItemOperations: AnyOperation[] = [
  declareOperation({
    id: 'linkedItems.get',
    method: 'GET',
    path: itemPath,
    tag: TAG,
    scope: 'work:read',
    summary: 'Get a linked item',
    description: `Its title, state, provider, URL, when it was last read, and the task or project it is linked to. ${itemRule}`,
    params: params(itemPath),
    response: LinkedItem,
    status: 200,
    etag: true,
    examples: { response: taskItemExample },
    errors: ['not_found'],
    run: (ctx, { params }) => getLinkedItem(ctx, params.linkedItemId as LinkedItemId),
  }),
  declareOperation({
    id: 'linkedItems.refresh',
    method: 'POST',
    path: `${itemPath}/refresh`,
    tag: TAG,
    scope,
    summary: 'Read a linked item again',
    description: `Reads the item's metadata again through the caller's own connection to its provider. ${itemRule}`,
    params: params(`${itemPath}/refresh`),
    response: LinkedItem,
    status: 200,
    examples: { response: taskItemExample },
    capability: 'contribute',
    target: itemTarget,
    errors: ['not_found', ...REFRESH_ERRORS],
    outbound: {
      prepare: (ctx, { params }) => prepareRefresh(ctx, params.linkedItemId as LinkedItemId),
      send: sendLink,
    },
    run: (ctx, { params, outbound }) => {
      const { plan, got } = outbound as never
      return refreshLinkedItem(ctx, params.linkedItemId as LinkedItemId, plan, got)
    },
  }),
  declareOperation({
    id: 'linkedItems.delete',
    method: 'DELETE',
    path: itemPath,
    tag: TAG,
    scope,
    summary: 'Unlink an item',
    description: `Removes the link and what was read through it; the item in the other tool is not touched. Emits \`linked_item.deleted\`. ${itemRule}`,
    params: params(itemPath),
    response: null,
    status: 204,
    capability: 'contribute',
    target: itemTarget,
    errors: ['not_found'],
    run: async (ctx, { params }) => {
      await unlinkItem(ctx, params.linkedItemId as LinkedItemId)
      return undefined
    },
  }),
]

/** Across every record: which visible ones link a URL, and what a URL would show before linking it. */
export const linkedItemUrlOperations: AnyOperation[] = [
  declareOperation({
    id: 'linkedItems.lookup',
    method: 'GET',
    path: `${root}/lookup`,
    tag: TAG,
    scope: 'work:read',
    summary: 'Find the records that link a URL',
    description:
      'The linked items with this URL on tasks and projects you can view, oldest link first. The URL is compared in its normalised form (scheme and host in lower case, default port dropped, dot segments resolved), the form links are stored in. Records you cannot view are left out, never hinted at. A URL the WHATWG URL parser refuses is 422 `rule_violated`.',
    params: params('/v1/orgs/{orgId}'),
    query: Type.Object(
      {
        url: Type.String({
          minLength: 1,
          maxLength: 2000,
          pattern: HTTP_URL,
          description: 'The http or https URL to look for, without credentials.',
        }),
        ...PageQuery,
      },
      { additionalProperties: false },
    ),
    response: PageOf(LinkedItem, 'LinkedItem'),
    status: 200,
    errors: ['invalid_cursor', 'rule_violated'],
    examples: lookupExample,
    run: (ctx, { query }) => lookupLinkedItems(ctx, query as { url: string }),
  }),
  declareOperation({
    id: 'linkedItems.preview',
    method: 'POST',
    path: `${root}/preview`,
    tag: TAG,
    scope,
    summary: 'Preview a URL without linking it',
    description:
      'Reads the item as `tasks.linkedItems.create` would, through your own connection to the enabled provider that reads the URL, with the same outbound checks, and saves nothing (no event). Needs `contribute` in the workspace, like connecting. Without such a provider or connection the answer has the URL only and `connected: false`; a URL whose host is a special-use address is refused.',
    params: params('/v1/orgs/{orgId}'),
    body: UrlBody,
    response: LinkedItemPreview,
    status: 200,
    capability: 'contribute',
    errors: [
      'outbound_refused',
      'external_item_not_found',
      'connection_inactive',
      'provider_unavailable',
      'rule_violated',
    ],
    outbound: {
      prepare: (ctx, { body }) => preparePreview(ctx, (body as { url: string }).url),
      send: sendLink,
    },
    examples: previewExample,
    run: (ctx, { outbound }) => {
      const { plan, got } = outbound as never
      return previewLinkedItem(ctx, plan, got)
    },
  }),
]

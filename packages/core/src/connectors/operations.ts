import { Type } from '@sinclair/typebox'
import type { ConnectionId, LinkedItemId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import {
  completeConnection,
  disconnect,
  getConnection,
  listConnections,
  listProviders,
  prepareCallback,
  prepareDisconnect,
  prepareStart,
  prepareTest,
  recordTest,
  sendCallback,
  sendDisconnect,
  sendStart,
  sendTest,
  startConnection,
} from './connections.ts'
import {
  linkItem,
  listLinkedItems,
  prepareLink,
  prepareRefresh,
  refreshLinkedItem,
  sendLink,
  unlinkItem,
} from './linked-items.ts'
import { Connection, ConnectionCheck, ConnectionStart, LinkedItem, Provider } from './schemas.ts'

const TAG = 'Connectors'
const scope = 'connectors:link' as const
const Paging = {
  cursor: Type.Optional(Type.String({ description: 'From `nextCursor` of the previous page.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
}
const connections = '/v1/orgs/{orgId}/connections'
const items = '/v1/orgs/{orgId}/tasks/{taskId}/linked-items'
const params = (path: string) => Type.Object(paramsOf(path), { additionalProperties: false })
const projectItems = '/v1/orgs/{orgId}/projects/{projectId}/linked-items'
const taskTarget = ({ params }: { params: { taskId: string } }) => ({
  type: 'task' as const,
  id: params.taskId,
})
const projectTarget = ({ params }: { params: { projectId: string } }) => ({
  type: 'project' as const,
  id: params.projectId,
})
const ofTask = (params: Record<string, string>) => ({ type: 'task' as const, id: params.taskId! })
const ofProject = (params: Record<string, string>) => ({ type: 'project' as const, id: params.projectId! })
const UrlBody = Type.Object(
  { url: Type.String({ minLength: 1, maxLength: 2000, description: "The item's URL in the other tool." }) },
  { additionalProperties: false, examples: [{ url: 'https://github.com/acme/api/issues/42' }] },
)

const projectItemExample = {
  id: 'litm_01JD3Q2R4S5T6V7W8X9YZABCDE',
  orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
  taskId: null,
  projectId: 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE',
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

export const connectorOperations: AnyOperation[] = [
  declareOperation({
    id: 'connectors.providers.list',
    method: 'GET',
    path: '/v1/orgs/{orgId}/connectors/providers',
    tag: TAG,
    scope,
    summary: 'List the providers you can connect',
    description: 'The other tools this server is configured to connect to (docs/connectors.md). One page.',
    params: params('/v1/orgs/{orgId}'),
    response: PageOf(Provider, 'ConnectorProviderPage'),
    status: 200,
    errors: [],
    run: async (ctx) => listProviders(ctx),
  }),
  declareOperation({
    id: 'connections.list',
    method: 'GET',
    path: connections,
    tag: TAG,
    scope,
    summary: 'List your connections',
    description: "The caller's own connections in the workspace; nobody sees another person's.",
    params: params(connections),
    query: Type.Object(Paging, { additionalProperties: false }),
    response: PageOf(Connection, 'ConnectorConnectionPage'),
    status: 200,
    errors: ['invalid_cursor'],
    run: (ctx, { query }) => listConnections(ctx, query),
  }),
  declareOperation({
    id: 'connections.create',
    method: 'POST',
    path: connections,
    tag: TAG,
    scope,
    summary: 'Start connecting a provider',
    description:
      'Discovers the provider, stores a pending connection and answers the authorization URL (code flow with PKCE, `state` and `resource`). Send the browser there; the provider redirects to `/v1/connectors/callback` within 10 minutes. Connecting again replaces the previous connection once authorized. Connecting, testing and disconnecting need `contribute` in the workspace (members have it).',
    params: params(connections),
    body: Type.Object(
      {
        providerId: Type.String({
          minLength: 1,
          maxLength: 63,
          description: 'A provider of `connectors.providers.list`.',
        }),
      },
      { additionalProperties: false, examples: [{ providerId: 'github' }] },
    ),
    response: ConnectionStart,
    status: 201,
    capability: 'contribute',
    errors: ['reference_not_found', 'outbound_refused', 'provider_unavailable'],
    location: 'connections.get',
    outbound: {
      prepare: async (ctx, { body }) => prepareStart(ctx, (body as { providerId: string }).providerId),
      send: sendStart,
    },
    run: (ctx, { body, outbound }) =>
      startConnection(ctx, (body as { providerId: string }).providerId, outbound as never),
  }),
  declareOperation({
    id: 'connections.callback',
    method: 'GET',
    path: '/v1/connectors/callback',
    tag: TAG,
    scope: null,
    writes: true,
    summary: 'Finish connecting (the provider redirects here)',
    description:
      "The redirect URI of every provider. Not called by clients: the provider sends the person's browser here with `state` and `code` (or `error`). The single-use `state` names the pending connection; the code is redeemed with its PKCE verifier and the tokens stored encrypted.",
    query: Type.Object(
      {
        state: Type.String({ minLength: 1, maxLength: 200 }),
        code: Type.Optional(Type.String({ maxLength: 2000 })),
        iss: Type.Optional(
          Type.String({ maxLength: 2000, description: 'RFC 9207: the issuer of the answer.' }),
        ),
        error: Type.Optional(Type.String({ maxLength: 200 })),
        error_description: Type.Optional(Type.String({ maxLength: 2000 })),
        error_uri: Type.Optional(Type.String({ maxLength: 2000 })),
      },
      { additionalProperties: false },
    ),
    response: Connection,
    status: 200,
    errors: ['authorization_failed', 'outbound_refused', 'provider_unavailable'],
    outbound: {
      prepare: (ctx, { query }) => prepareCallback(ctx, query as Record<string, string>),
      send: sendCallback,
    },
    run: (ctx, { query, outbound }) =>
      completeConnection(ctx, (query as { state: string }).state, outbound as never),
  }),
  declareOperation({
    id: 'connections.get',
    method: 'GET',
    path: `${connections}/{connectionId}`,
    tag: TAG,
    scope,
    summary: 'Get one of your connections',
    params: params(`${connections}/{connectionId}`),
    response: Connection,
    status: 200,
    etag: true,
    errors: [],
    run: (ctx, { params }) => getConnection(ctx, params.connectionId as ConnectionId),
  }),
  declareOperation({
    id: 'connections.test',
    method: 'POST',
    path: `${connections}/{connectionId}/test`,
    tag: TAG,
    scope,
    summary: 'Test a connection',
    description:
      "Reads the provider's test URL with the connection's token (refreshing it first when it is about to expire) and records the outcome: `active` when accepted, `broken` when refused.",
    params: params(`${connections}/{connectionId}/test`),
    response: ConnectionCheck,
    status: 200,
    capability: 'contribute',
    errors: ['connection_inactive', 'outbound_refused', 'provider_unavailable'],
    outbound: {
      prepare: (ctx, { params }) => prepareTest(ctx, params.connectionId as ConnectionId),
      send: sendTest,
    },
    run: (ctx, { params, outbound }) =>
      recordTest(ctx, params.connectionId as ConnectionId, outbound as never),
  }),
  declareOperation({
    id: 'connections.delete',
    method: 'DELETE',
    path: `${connections}/{connectionId}`,
    tag: TAG,
    scope,
    summary: 'Disconnect',
    description:
      'Revokes the refresh token at the provider when it offers RFC 7009 revocation, then deletes the connection and its tokens (even when the provider is unreachable). Linked items keep what was last read.',
    params: params(`${connections}/{connectionId}`),
    response: null,
    status: 204,
    capability: 'contribute',
    errors: [],
    outbound: {
      prepare: (ctx, { params }) => prepareDisconnect(ctx, params.connectionId as ConnectionId),
      send: sendDisconnect,
    },
    run: async (ctx, { params, outbound }) => {
      await disconnect(ctx, params.connectionId as ConnectionId, outbound === true)
      return undefined
    },
  }),
  declareOperation({
    id: 'linkedItems.list',
    method: 'GET',
    path: items,
    tag: TAG,
    scope,
    summary: "List a task's linked items",
    params: params(items),
    query: Type.Object(Paging, { additionalProperties: false }),
    response: PageOf(LinkedItem, 'LinkedItemPage'),
    status: 200,
    errors: ['invalid_cursor'],
    run: (ctx, { params, query }) => listLinkedItems(ctx, ofTask(params), query),
  }),
  declareOperation({
    id: 'linkedItems.create',
    method: 'POST',
    path: items,
    tag: TAG,
    scope,
    summary: 'Link an item of another tool to a task',
    description:
      "By URL. When a configured provider reads the URL and the caller has a connection to it, the item's title, state, assignee and update time are read through that connection; otherwise the link keeps the URL only. A URL whose host is a special-use address (loopback, private, link-local, …) is refused.",
    params: params(items),
    body: UrlBody,
    response: LinkedItem,
    status: 201,
    capability: 'contribute',
    target: taskTarget,
    errors: [
      'already_exists',
      'outbound_refused',
      'external_item_not_found',
      'connection_inactive',
      'provider_unavailable',
    ],
    outbound: {
      prepare: (ctx, { params, body }) => prepareLink(ctx, ofTask(params), (body as { url: string }).url),
      send: sendLink,
    },
    run: (ctx, { params, outbound }) => {
      const { plan, got } = outbound as never
      return linkItem(ctx, ofTask(params), plan, got)
    },
  }),
  declareOperation({
    id: 'linkedItems.refresh',
    method: 'POST',
    path: `${items}/{linkedItemId}/refresh`,
    tag: TAG,
    scope,
    summary: 'Read a linked item again',
    description: "Reads the item's metadata again through the caller's own connection to its provider.",
    params: params(`${items}/{linkedItemId}/refresh`),
    response: LinkedItem,
    status: 200,
    capability: 'contribute',
    target: taskTarget,
    errors: [
      'connection_required',
      'connection_inactive',
      'outbound_refused',
      'external_item_not_found',
      'provider_unavailable',
    ],
    outbound: {
      prepare: (ctx, { params }) => prepareRefresh(ctx, ofTask(params), params.linkedItemId as LinkedItemId),
      send: sendLink,
    },
    run: (ctx, { params, outbound }) => {
      const { plan, got } = outbound as never
      return refreshLinkedItem(ctx, ofTask(params), params.linkedItemId as LinkedItemId, plan, got)
    },
  }),
  declareOperation({
    id: 'linkedItems.delete',
    method: 'DELETE',
    path: `${items}/{linkedItemId}`,
    tag: TAG,
    scope,
    summary: 'Unlink an item from a task',
    params: params(`${items}/{linkedItemId}`),
    response: null,
    status: 204,
    capability: 'contribute',
    target: taskTarget,
    errors: [],
    run: async (ctx, { params }) => {
      await unlinkItem(ctx, ofTask(params), params.linkedItemId as LinkedItemId)
      return undefined
    },
  }),
  declareOperation({
    id: 'projectLinkedItems.list',
    method: 'GET',
    path: projectItems,
    tag: TAG,
    scope,
    summary: "List a project's linked items",
    params: params(projectItems),
    query: Type.Object(Paging, { additionalProperties: false }),
    response: PageOf(LinkedItem, 'LinkedItemPage'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: { response: { data: [projectItemExample], nextCursor: null } },
    run: (ctx, { params, query }) => listLinkedItems(ctx, ofProject(params), query),
  }),
  declareOperation({
    id: 'projectLinkedItems.create',
    method: 'POST',
    path: projectItems,
    tag: TAG,
    scope,
    summary: 'Link an item of another tool to a project',
    description:
      "By URL. When a configured provider reads the URL and the caller has a connection to it, the item's title, state, assignee and update time are read through that connection; otherwise the link keeps the URL only. A URL whose host is a special-use address (loopback, private, link-local, …) is refused.",
    params: params(projectItems),
    body: UrlBody,
    response: LinkedItem,
    status: 201,
    examples: { request: { url: projectItemExample.url }, response: projectItemExample },
    capability: 'contribute',
    target: projectTarget,
    errors: [
      'already_exists',
      'outbound_refused',
      'external_item_not_found',
      'connection_inactive',
      'provider_unavailable',
    ],
    outbound: {
      prepare: (ctx, { params, body }) => prepareLink(ctx, ofProject(params), (body as { url: string }).url),
      send: sendLink,
    },
    run: (ctx, { params, outbound }) => {
      const { plan, got } = outbound as never
      return linkItem(ctx, ofProject(params), plan, got)
    },
  }),
  declareOperation({
    id: 'projectLinkedItems.refresh',
    method: 'POST',
    path: `${projectItems}/{linkedItemId}/refresh`,
    tag: TAG,
    scope,
    summary: "Read a project's linked item again",
    description: "Reads the item's metadata again through the caller's own connection to its provider.",
    params: params(`${projectItems}/{linkedItemId}/refresh`),
    response: LinkedItem,
    status: 200,
    examples: { response: projectItemExample },
    capability: 'contribute',
    target: projectTarget,
    errors: [
      'connection_required',
      'connection_inactive',
      'outbound_refused',
      'external_item_not_found',
      'provider_unavailable',
    ],
    outbound: {
      prepare: (ctx, { params }) =>
        prepareRefresh(ctx, ofProject(params), params.linkedItemId as LinkedItemId),
      send: sendLink,
    },
    run: (ctx, { params, outbound }) => {
      const { plan, got } = outbound as never
      return refreshLinkedItem(ctx, ofProject(params), params.linkedItemId as LinkedItemId, plan, got)
    },
  }),
  declareOperation({
    id: 'projectLinkedItems.delete',
    method: 'DELETE',
    path: `${projectItems}/{linkedItemId}`,
    tag: TAG,
    scope,
    summary: 'Unlink an item from a project',
    params: params(`${projectItems}/{linkedItemId}`),
    response: null,
    status: 204,
    capability: 'contribute',
    target: projectTarget,
    errors: [],
    run: async (ctx, { params }) => {
      await unlinkItem(ctx, ofProject(params), params.linkedItemId as LinkedItemId)
      return undefined
    },
  }),
]

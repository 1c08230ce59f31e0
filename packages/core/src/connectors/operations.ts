import { Type } from '@sinclair/typebox'
import type { ConnectionId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf } from '../kernel/schema-types.ts'
import {
  completeConnection,
  disconnect,
  getConnection,
  listConnections,
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
import { connectionExamples, providerExamples } from './examples.ts'
import {
  linkedItemItemOperations,
  linkedItemOperations,
  linkedItemUrlOperations,
} from './linked-item-operations.ts'
import { getProvider, listProviders, updateProvider } from './provider-settings.ts'
import { recordPropertyOperations } from './record-property-operations.ts'
import { Connection, ConnectionCheck, ConnectionStart, Provider } from './schemas.ts'

const TAG = 'Connectors'
const scope = 'connectors:link' as const
const connections = '/v1/orgs/{orgId}/connections'
const params = (path: string) => Type.Object(paramsOf(path), { additionalProperties: false })
const providerParams = Type.Object(
  {
    ...paramsOf('/v1/orgs/{orgId}'),
    providerId: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{0,62}$', description: 'A configured provider.' }),
  },
  { additionalProperties: false },
)

export const connectorOperations: AnyOperation[] = [
  declareOperation({
    id: 'connectors.providers.list',
    method: 'GET',
    path: '/v1/orgs/{orgId}/connectors/providers',
    tag: TAG,
    scope,
    summary: 'List the providers you can connect',
    description:
      'The other tools this server is configured to connect to (docs/connectors.md), each with whether this workspace enabled it, by provider id.',
    params: params('/v1/orgs/{orgId}'),
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(Provider, 'ConnectorProvider'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: providerExamples.list,
    run: (ctx, { query }) => listProviders(ctx, query),
  }),
  declareOperation({
    id: 'connectors.providers.get',
    method: 'GET',
    path: '/v1/orgs/{orgId}/connectors/providers/{providerId}',
    tag: TAG,
    scope,
    summary: 'Get one provider',
    description:
      'Its issuer, the scopes a connection asks for, the item URLs it reads, and whether it is enabled here.',
    params: providerParams,
    response: Provider,
    status: 200,
    etag: true,
    errors: [],
    examples: providerExamples.get,
    run: (ctx, { params }) => getProvider(ctx, params.providerId as string),
  }),
  declareOperation({
    id: 'connectors.providers.update',
    method: 'PATCH',
    path: '/v1/orgs/{orgId}/connectors/providers/{providerId}',
    tag: TAG,
    scope,
    summary: 'Enable or disable a provider for this workspace',
    description:
      'Needs `manage` on the workspace. While disabled, nobody can connect it, test a connection to it, or read items through it: new links to its URLs keep the URL only and refreshing them answers `connection_required`. Existing connections and linked items stay.',
    params: providerParams,
    body: Type.Object(
      { enabled: Type.Boolean() },
      { additionalProperties: false, examples: [{ enabled: false }] },
    ),
    response: Provider,
    status: 200,
    capability: 'manage',
    precondition: 'connectors.providers.get',
    errors: ['precondition_failed'],
    examples: providerExamples.update,
    run: (ctx, { params, body }) =>
      updateProvider(ctx, params.providerId as string, body as { enabled: boolean }),
  }),
  declareOperation({
    id: 'connections.list',
    method: 'GET',
    path: connections,
    tag: TAG,
    scope,
    summary: 'List your connections',
    requires: 'any member who is a person, on their own connections only (nobody else sees or uses them)',
    description: "The caller's own connections in the workspace; nobody sees another person's.",
    params: params(connections),
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(Connection, 'ConnectorConnection'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: connectionExamples.list,
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
      'Discovers the provider, stores a pending connection and answers the authorization URL (code flow with PKCE, `state` and `resource`). Send the browser there; the provider redirects to `/connectors/callback` within 10 minutes. Connecting again replaces the previous connection once authorized. Connecting, testing and disconnecting need `contribute` in the workspace (members have it).',
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
    examples: connectionExamples.create,
    run: (ctx, { body, outbound }) =>
      startConnection(ctx, (body as { providerId: string }).providerId, outbound as never),
  }),
  declareOperation({
    id: 'connectors.callback',
    method: 'GET',
    path: '/connectors/callback',
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
    examples: connectionExamples.callback,
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
    requires: 'any member who is a person, on their own connections only (nobody else sees or uses them)',
    description:
      "One of the caller's own connections to a provider: its `status`, the scopes the provider granted, when it was connected and last tested, and the last error; never its tokens. Another member's connection is a 404.",
    params: params(`${connections}/{connectionId}`),
    response: Connection,
    status: 200,
    etag: true,
    errors: [],
    examples: connectionExamples.get,
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
    examples: connectionExamples.test,
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
  ...linkedItemOperations({
    opPrefix: 'tasks.linkedItems',
    holder: 'task',
    param: 'taskId',
    collection: 'tasks',
    exampleId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE',
  }),
  ...linkedItemOperations({
    opPrefix: 'projects.linkedItems',
    holder: 'project',
    param: 'projectId',
    collection: 'projects',
    exampleId: 'proj_01JD3Q2R4S5T6V7W8X9YZABCDE',
  }),
  ...linkedItemItemOperations,
  ...linkedItemUrlOperations,
  ...recordPropertyOperations,
]

import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { AnyJson, Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

const ProviderIdSchema = Type.String({
  pattern: '^[a-z0-9][a-z0-9-]{0,62}$',
  description: 'A provider configured by the server operator.',
  examples: ['github'],
})

const providerExample = {
  id: 'github',
  name: 'GitHub',
  issuer: 'https://github.com',
  scopes: ['repo'],
  itemTypes: ['issue', 'pull request'],
  items: [
    {
      type: 'issue',
      pattern:
        'https://github\\.com/(?<owner>[A-Za-z0-9-]{1,39})/(?<repo>[A-Za-z0-9._-]{1,100})/issues/(?<number>[1-9][0-9]*)',
    },
  ],
  enabled: true,
}

export const Provider = Type.Object(
  {
    id: ProviderIdSchema,
    name: Type.String({ examples: ['GitHub'] }),
    issuer: Type.String({ description: 'The authorization server a connection is made with.' }),
    scopes: Type.Array(Type.String(), { description: 'What a connection asks the provider for.' }),
    itemTypes: Type.Array(Type.String(), { description: 'The kinds of item it reads by URL.' }),
    items: Type.Array(
      Type.Object(
        {
          type: Type.String({ description: 'What the item is at the provider (`issue`).' }),
          pattern: Type.String({
            description: 'A regular expression over the whole URL: the URLs of this kind it reads.',
          }),
        },
        { additionalProperties: false },
      ),
      { description: 'The item URLs it understands, in the order they are tried.' },
    ),
    enabled: Type.Boolean({
      description:
        'Whether this workspace uses it. A disabled provider cannot be connected or read through; links to its items keep their URL and last read metadata.',
    }),
  },
  {
    $id: 'ConnectorProvider',
    additionalProperties: false,
    description: 'Another tool the server can connect to, as its operator configured it.',
    examples: [providerExample],
  },
)
export type Provider = Static<typeof Provider>

export const ConnectionStatus = StringEnum(['pending', 'active', 'broken'] as const, {
  description:
    '`pending`: waiting for the person to authorize at the provider; `active`: usable; `broken`: the provider refused its tokens, connect again.',
})

const connectionExample = {
  id: 'conn_01JD3Q2R4S5T6V7W8X9YZABCDE',
  orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
  memberId: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
  providerId: 'github',
  status: 'active',
  scopes: ['repo'],
  createdAt: '2026-11-25T10:00:00.000Z',
  connectedAt: '2026-11-25T10:00:30.000Z',
  lastCheckedAt: null,
  lastError: null,
}

export const Connection = Type.Object(
  {
    id: IdSchema('ConnectionId'),
    orgId: IdSchema('OrgId'),
    memberId: IdSchema('MemberId', 'The person whose connection it is; nobody else can see or use it.'),
    providerId: ProviderIdSchema,
    status: ConnectionStatus,
    scopes: Type.Array(Type.String(), { description: 'What the provider granted.' }),
    createdAt: Timestamp('When the person started connecting.'),
    connectedAt: NullableTimestamp('When the provider authorized it.'),
    lastCheckedAt: NullableTimestamp('When `connections.test` last ran.'),
    lastError: Nullable(Type.String({ maxLength: 500 }), 'Why the last use failed, if it did.'),
  },
  {
    $id: 'ConnectorConnection',
    additionalProperties: false,
    description: "A person's connection to another tool in one workspace. Its tokens are never returned.",
    examples: [connectionExample],
  },
)
export type Connection = Static<typeof Connection>

export const ConnectionStart = Type.Object(
  {
    connection: Connection,
    authorizationUrl: Type.String({
      format: 'uri',
      description: "Send the person's browser here; the provider redirects back to `/connectors/callback`.",
    }),
  },
  {
    $id: 'ConnectorConnectionStart',
    additionalProperties: false,
    examples: [
      {
        connection: { ...connectionExample, status: 'pending', scopes: [], connectedAt: null },
        authorizationUrl:
          'https://github.com/login/oauth/authorize?client_id=Iv1.abc&response_type=code&state=Yk3qW2vZ8mNc&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256',
      },
    ],
  },
)

export const ConnectionCheck = Type.Object(
  {
    ok: Type.Boolean({ description: 'Whether the provider accepted the connection’s token.' }),
    status: Type.Integer({ description: 'The HTTP status the provider answered.' }),
    connection: Connection,
  },
  {
    $id: 'ConnectorConnectionCheck',
    additionalProperties: false,
    examples: [{ ok: true, status: 200, connection: connectionExample }],
  },
)

export const LinkedItem = Type.Object(
  {
    id: IdSchema('LinkedItemId'),
    orgId: IdSchema('OrgId'),
    taskId: Nullable(IdSchema('TaskId'), 'The task it is linked to; null when linked to a project.'),
    projectId: Nullable(IdSchema('ProjectId'), 'The project it is linked to; null when linked to a task.'),
    // WHATWG-normalised http(s) URLs may hold characters RFC 3986 does not (`{`, `|`): no `format: uri`.
    url: Type.String({ pattern: '^https?://', maxLength: 2000, description: 'The URL, normalised.' }),
    providerId: Nullable(
      ProviderIdSchema,
      'The provider whose item it is; null for a URL no provider reads.',
    ),
    itemType: Nullable(Type.String(), 'What the item is at the provider (`issue`, `task`).'),
    title: Nullable(Type.String({ maxLength: 500 })),
    state: Nullable(Type.String({ maxLength: 500 }), "The item's state as the provider names it."),
    assignee: Nullable(Type.String({ maxLength: 500 })),
    externalUpdatedAt: NullableTimestamp('When the item last changed at the provider.'),
    fetchedAt: NullableTimestamp('When its metadata was last read; null for a link by URL only.'),
    creatorId: IdSchema('MemberId'),
    createdAt: Timestamp('When it was linked.'),
  },
  {
    $id: 'LinkedItem',
    additionalProperties: false,
    description:
      'An item of another tool linked to a task or a project, with what the server last read of it.',
    examples: [
      {
        id: 'litm_01JD3Q2R4S5T6V7W8X9YZABCDE',
        orgId: 'org_01JD3Q2R4S5T6V7W8X9YZABCDE',
        taskId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE',
        projectId: null,
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
      },
    ],
  },
)
export type LinkedItem = Static<typeof LinkedItem>

/** A connection as stored: the public record plus the sealed secrets and the pending state. */
export interface ConnectionRecord extends Connection {
  userId: string
  /** Pending only: the `state` sent to the provider, and when the attempt expires. */
  state: string | null
  stateExpiresAt: string | null
  /** Sealed with the connector key; never leave the server. */
  codeVerifier: string | null
  accessToken: string | null
  refreshToken: string | null
  tokenExpiresAt: string | null
  /** Bumped on every token change, so a write from a stale read does not overwrite newer tokens. */
  tokenVersion: number
}

export const LinkedItemPreview = Type.Object(
  {
    url: Type.String({ pattern: '^https?://', maxLength: 2000, description: 'The URL, normalised.' }),
    providerId: Nullable(ProviderIdSchema, 'The enabled provider that reads it; null when none does.'),
    connected: Type.Boolean({
      description: 'Whether it was read through your connection; false leaves only the URL.',
    }),
    itemType: Nullable(Type.String()),
    title: Nullable(Type.String({ maxLength: 500 })),
    state: Nullable(Type.String({ maxLength: 500 })),
    assignee: Nullable(Type.String({ maxLength: 500 })),
    externalUpdatedAt: NullableTimestamp('When the item last changed at the provider.'),
    fetchedAt: NullableTimestamp('When it was read; null when it was not.'),
  },
  {
    $id: 'LinkedItemPreview',
    additionalProperties: false,
    description: 'What linking a URL would show, read now and saved nowhere.',
    examples: [
      {
        url: 'https://github.com/acme/api/issues/42',
        providerId: 'github',
        connected: true,
        itemType: 'issue',
        title: 'Rate limits reset too early',
        state: 'open',
        assignee: 'octocat',
        externalUpdatedAt: '2026-11-24T08:00:00.000Z',
        fetchedAt: '2026-11-25T10:01:00.000Z',
      },
    ],
  },
)
export type LinkedItemPreview = Static<typeof LinkedItemPreview>

export const RECORD_TYPES = ['task', 'project', 'program', 'initiative'] as const
export type RecordType = (typeof RECORD_TYPES)[number]

export const PropertyKey = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$',
  description: 'Letters, digits and `._:-`, at most 128; unique per record within your client.',
  examples: ['sync.state'],
})

export const recordPropertyExample = {
  recordType: 'task',
  recordId: 'task_01JD3Q2R4S5T6V7W8X9YZABCDE',
  key: 'sync.state',
  clientId: 'https://sync.example.com/client.json',
  value: { externalId: 'JIRA-42', syncedAt: '2026-11-25T10:00:00.000Z' },
  updatedBy: 'mem_01JD3Q2R4S5T6V7W8X9YZABCDE',
  updatedAt: '2026-11-25T10:00:00.000Z',
}

export const RecordProperty = Type.Object(
  {
    recordType: StringEnum(RECORD_TYPES),
    recordId: Type.String({ description: 'The task, project, program or initiative.' }),
    key: PropertyKey,
    clientId: Nullable(
      Type.String(),
      'The OAuth client whose namespace holds it (the client of the token that wrote it); null for tokens without a client.',
    ),
    value: AnyJson('Any JSON, at most 32 KiB serialised.'),
    updatedBy: IdSchema('MemberId'),
    updatedAt: Timestamp('When it was last set.'),
  },
  {
    $id: 'RecordProperty',
    additionalProperties: false,
    description:
      "An app's own data on a record (its external id, sync state), visible only to the OAuth client that set it.",
    examples: [recordPropertyExample],
  },
)
export type RecordProperty = Static<typeof RecordProperty>

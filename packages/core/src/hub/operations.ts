import { type TProperties, Type } from '@sinclair/typebox'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { NOTIFICATION_VIEWS, Notification, NotificationKindSchema } from '../notifications/schemas.ts'
import { PollQueryFields, StreamEvent } from '../streams/schema.ts'
import { hubActivity } from './activity.ts'
import { hubExamples as ex } from './examples.ts'
import { hubInbox } from './inbox.ts'
import { hubResolve } from './resolve.ts'
import { HubPageOf, HubPageQuery, PartialOrg, ResolvedRecord, SearchHitSchema } from './schemas.ts'
import { hubSearch } from './search.ts'
import { HUB_SEARCH_TYPES } from './storage.ts'

const TAG = 'Hub'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const ACROSS =
  'One permission-scoped query runs in each workspace you are an active member of, with your role and grants there, and the results are merged; no query spans workspaces. A workspace that fails or takes too long is listed in `partial` instead of failing the answer. The cursor is signed and holds one position per workspace: a workspace you join later starts at its beginning, one you leave drops out.'

export const hubOperations: AnyOperation[] = [
  declareOperation({
    id: 'hub.search',
    method: 'GET',
    path: '/v1/hub/search',
    tag: TAG,
    scope: 'work:read',
    summary: 'Search all my workspaces',
    description: `Ranked full-text search over tasks, projects, initiatives, documents, comments and status updates in every workspace you belong to, through each database's own full-text engine (SQLite FTS5, Postgres \`tsvector\` with a GIN index). Every word must begin a word of the title or text. Only records you may view are searched. Each hit's \`score\` is its rank relative to the best hit of its workspace. ${ACROSS}`,
    query: obj({
      q: Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'Up to 8 words; each must begin a word of the record.',
      }),
      types: Type.Optional(
        Type.String({
          maxLength: 100,
          description: `Comma-separated subset of ${HUB_SEARCH_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
        }),
      ),
      ...HubPageQuery,
    }),
    response: HubPageOf(SearchHitSchema, 'Hits, best first.'),
    status: 200,
    errors: ['validation_failed', 'invalid_cursor'],
    examples: ex.search,
    run: (ctx, { query }) => hubSearch(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.inbox',
    method: 'GET',
    path: '/v1/hub/inbox',
    tag: TAG,
    scope: 'work:read',
    summary: 'My notifications in all workspaces',
    description: `Your notifications of every workspace, newest first, with the filters of \`notifications.list\`; mark them read through \`notifications.read\` of their workspace (\`orgId\` is on each). ${ACROSS}`,
    query: obj({
      view: Type.Optional(
        StringEnum(NOTIFICATION_VIEWS, {
          default: 'inbox',
          description: '`inbox` (default): neither archived nor snoozed; `snoozed`; `archived`; `all`.',
        }),
      ),
      unread: Type.Optional(Type.Boolean({ description: 'true: only unread ones; false: only read ones.' })),
      kind: Type.Optional(NotificationKindSchema),
      ...HubPageQuery,
    }),
    response: HubPageOf(Notification, 'Notifications, newest first.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.inbox,
    run: (ctx, { query }) => hubInbox(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.activity',
    method: 'GET',
    path: '/v1/hub/activity',
    tag: TAG,
    scope: 'work:read',
    summary: 'Recent events in all my workspaces',
    description: `The events you may see in every workspace, newest first (\`streams.hub\` is the same log oldest first, for following it). Filters: \`kinds\`, \`actorId\`, \`recordId\`. ${ACROSS}`,
    query: obj({
      kinds: PollQueryFields.kinds,
      actorId: Type.Optional(
        Type.String({ maxLength: 64, description: 'Only changes made by this member or agent.' }),
      ),
      recordId: Type.Optional(Type.String({ maxLength: 64, description: 'Only events about this record.' })),
      ...HubPageQuery,
    }),
    response: HubPageOf(StreamEvent, 'Events, newest first.'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: ex.activity,
    run: (ctx, { query }) => hubActivity(ctx, query as never),
  }),
  declareOperation({
    id: 'hub.resolve',
    method: 'GET',
    path: '/v1/hub/resolve',
    tag: TAG,
    scope: 'work:read',
    summary: 'Resolve a task key or record id',
    description:
      'Which record a reference names, in each workspace where you may view it: a task key (`ENG-42`, current or previous; every workspace has its own keys, so there may be several) or a task, project, initiative or document id. Workspaces that fail are listed in `partial`.',
    query: obj({
      ref: Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'A task key or a `task_`, `proj_`, `ini_` or `doc_` id.',
      }),
    }),
    response: obj({
      data: Type.Array(ResolvedRecord, { description: 'At most one per workspace.' }),
      partial: Type.Array(PartialOrg, { description: 'Workspaces whose look-up failed or timed out.' }),
    }),
    status: 200,
    errors: ['validation_failed'],
    examples: ex.resolve,
    run: (ctx, { query }) => hubResolve(ctx, (query as { ref: string }).ref),
  }),
]

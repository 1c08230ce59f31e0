import { Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation, type OperationContext } from '../kernel/operation.ts'
import { streamExample } from './examples.ts'
import { pollHub, pollOrg } from './poll.ts'
import { PollQueryFields, parseKinds, STREAM_LIMIT_DEFAULT, StreamPage } from './schema.ts'

const PollQuery = Type.Object(PollQueryFields, { additionalProperties: false })

type PollQueryInput = {
  cursor?: string
  from?: 'start' | 'now'
  kinds?: string
  limit?: number
  wait?: number
}

const request = (query: PollQueryInput) => ({
  cursor: query.cursor,
  from: query.from,
  kinds: parseKinds(query.kinds),
  limit: query.limit ?? STREAM_LIMIT_DEFAULT,
  wait: query.wait ?? 0,
})

const deps = (ctx: OperationContext) => ({ store: ctx.store, hub: ctx.hub, cursors: ctx.cursors })

const STREAM_ERRORS = ['invalid_cursor', 'cursor_expired'] as const

export const streamsCatalogue: AnyOperation[] = [
  declareOperation({
    id: 'orgs.stream',
    method: 'GET',
    path: '/v1/orgs/{orgId}/stream',
    tag: 'Streams',
    scope: 'work:read',
    summary: "Poll a workspace's events",
    description:
      'The events of one workspace you may see, in log order, from `cursor`. Always returns a `nextCursor` to continue from. With `wait`, an empty answer is held until something happens (long-poll). A cursor older than retention answers 410 `cursor_expired`.',
    params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
    query: PollQuery,
    response: StreamPage,
    status: 200,
    errors: [...STREAM_ERRORS],
    examples: streamExample,
    async run(ctx, { query }) {
      return pollOrg(deps(ctx), ctx.actor!, request(query as PollQueryInput))
    },
  }),
  declareOperation({
    id: 'hub.stream',
    method: 'GET',
    path: '/v1/hub/stream',
    tag: 'Streams',
    scope: 'work:read',
    summary: 'Poll the events of all my workspaces',
    description:
      "The events of every workspace you belong to, each read with your permissions there and merged (each workspace's events in log order). The cursor combines one position per workspace; a workspace you join later starts at its oldest retained event.",
    query: PollQuery,
    response: StreamPage,
    status: 200,
    errors: [...STREAM_ERRORS],
    examples: streamExample,
    async run(ctx, { query }) {
      return pollHub(deps(ctx), ctx.principal!.userId, request(query as PollQueryInput))
    },
  }),
]

import { Type } from '@sinclair/typebox'
import { IdSchema, type OrgId } from '../kernel/ids.ts'
import type { EventStreamEndpoint } from '../kernel/openapi/paths.ts'
import { compilePart } from '../kernel/pipeline/validation.ts'
import type { SubscribeOptions } from './broker.ts'
import { parseKinds, StreamEnd, StreamEvent, StreamQueryFields } from './schema.ts'

/** The query of `GET /v1/stream/sse`: the poll parameters without `limit`/`wait`, plus `orgId`. */
export const SseQuery = Type.Object(
  {
    orgId: Type.Optional(
      IdSchema('OrgId', 'Only this workspace; every workspace you belong to when absent.'),
    ),
    ...StreamQueryFields,
  },
  { additionalProperties: false },
)

const validator = compilePart<{ orgId?: string; cursor?: string; from?: 'start' | 'now'; kinds?: string }>(
  SseQuery,
  'query',
  { coerce: true },
)

/**
 * Validates the SSE query (400 problems like any operation). `lastEventId` is the `Last-Event-ID`
 * header a reconnecting EventSource sends; an explicit `cursor` wins over it.
 */
export function parseSseQuery(query: Record<string, string>, lastEventId?: string | null): SubscribeOptions {
  const parsed = validator.parse(query)
  const cursor = parsed.cursor ?? (lastEventId || undefined)
  return {
    orgId: parsed.orgId as OrgId | undefined,
    kinds: parseKinds(parsed.kinds),
    cursor,
    from: parsed.from,
  }
}

/**
 * `GET /v1/stream/sse` as the OpenAPI document and the h3 adapter see it. It is not a catalogue
 * operation (it answers with an open stream, not one response), so it is described here once.
 */
export const SSE_ENDPOINT = {
  id: 'stream.sse',
  method: 'GET',
  path: '/v1/stream/sse',
  tag: 'Streams',
  scope: 'work:read',
  summary: 'Stream events as server-sent events',
  description:
    'The events of every workspace you belong to (or of `orgId`), as `text/event-stream`: frames named `stream-event` whose `data` is a `StreamEvent` and whose `id` is a resumable cursor; `ping` frames (every 25 seconds by default) carrying the current cursor; and a final `stream-end` frame (`StreamEnd`) when the server ends the stream. Reconnect with `Last-Event-ID` (or `cursor`) to resume without loss or duplicates. Problems before the stream opens are problem documents.',
  query: SseQuery,
  // `not_found`: an `orgId` the caller is not a member of, answered like a missing workspace.
  errors: ['invalid_cursor', 'cursor_expired', 'not_found'],
  event: StreamEvent,
  end: StreamEnd,
} as const satisfies EventStreamEndpoint

import { Type } from '@sinclair/typebox'
import { IdSchema, type OrgId } from '../ids.ts'
import { compilePart } from '../validation.ts'
import type { SubscribeOptions } from './broker.ts'
import { parseKinds, StreamQueryFields } from './schema.ts'

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

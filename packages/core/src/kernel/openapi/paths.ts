import type { TObject, TSchema } from '@sinclair/typebox'
import type { Scope } from '../auth/principal.ts'
import { type AnyOperation, isWrite } from '../operation.ts'
import { ETAG_LIST_PATTERN } from '../pipeline/canonical.ts'
import type { ProblemCode } from '../problems.ts'
import { accessNote } from './access-note.ts'
import { problemResponse, problemStatuses } from './problems.ts'

// The path items of the document: one operation object per catalogue operation and per event
// stream, with its parameters, headers and responses.

type Json = Record<string, unknown>

/**
 * An endpoint that is not a catalogue operation because it answers with an open
 * `text/event-stream` rather than one response; its frames' payloads are named schemas.
 */
export interface EventStreamEndpoint {
  id: string
  method: 'GET'
  path: string
  tag: string
  scope: Scope
  summary: string
  description: string
  query: TObject
  errors: readonly ProblemCode[]
  /** The `data` of each event frame. */
  event: TSchema
  /** The `data` of the final frame the server sends when it ends the stream. */
  end: TSchema
}

/** Either scheme carries the same bearer token; both name the scope the operation needs. */
function securityOf(scope: Scope): Json[] {
  return [{ bearerAuth: [scope] }, { oauth2: [scope] }]
}

export function operationObject(op: AnyOperation, ref: (s: TSchema) => Json): Json {
  const parameters: Json[] = [
    ...parametersOf(op.params, 'path', ref),
    ...parametersOf(op.query, 'query', ref),
  ]
  const etags = { pattern: ETAG_LIST_PATTERN }
  if (op.etag)
    parameters.push(header('If-None-Match', 'Answer 304 when the representation still has this ETag.', etags))
  if (op.precondition)
    parameters.push(
      header('If-Match', 'Only change the resource if its ETag still matches (else 412).', etags),
    )
  if (op.method === 'POST' && op.scope && isWrite(op))
    parameters.push(
      header(
        'Idempotency-Key',
        'Replays the first response for 24 hours; reusing it with another body is a 422.',
        { minLength: 1, maxLength: 255 },
      ),
    )
  const responses: Record<string, Json> = {}
  const headers = responseHeaders(op)
  responses[String(op.status)] = op.response
    ? {
        description: op.summary,
        ...(headers ? { headers } : {}),
        content: op.file
          ? { [op.file.mediaType]: withExample(ref(op.response), op.examples?.response) }
          : { 'application/json': withExample(ref(op.response), op.examples?.response) },
      }
    : { description: `${op.summary}: done, no content.` }
  if (op.etag) {
    responses['304'] = {
      description: 'Not modified: the ETag in If-None-Match still matches.',
      headers: {
        ETag: headers.ETag,
        RateLimit: headers.RateLimit,
        'RateLimit-Policy': headers['RateLimit-Policy'],
      },
    }
  }
  for (const [status, codes] of problemStatuses(op)) responses[status] = problemResponse(codes)
  return {
    operationId: op.id,
    summary: op.summary,
    description: [op.description, accessNote(op)].filter(Boolean).join('\n\n'),
    tags: [op.tag],
    security: op.scope ? securityOf(op.scope) : [],
    ...(op.scope ? { 'x-required-scope': op.scope } : {}),
    ...(op.capability ? { 'x-required-capability': op.capability } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(op.streamBody
      ? {
          requestBody: {
            required: true,
            description: op.streamBody.description,
            content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
          },
        }
      : {}),
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': withExample(ref(op.body), op.examples?.request) },
          },
        }
      : {}),
    responses,
  }
}

function withExample(schema: Json, example: unknown): Json {
  return example === undefined ? { schema } : { schema, example: example as Json }
}

/** An SSE endpoint: its frames' payloads are named schemas, the stream itself `text/event-stream`. */
export function eventStreamObject(sse: EventStreamEndpoint, ref: (s: TSchema) => Json): Json {
  const responses: Record<string, Json> = {
    '200': {
      description: `${sse.summary}: an open stream of \`stream-event\`, \`ping\` and a final \`stream-end\` frame.`,
      headers: responseHeaders({ method: sse.method, scope: sse.scope }),
      content: {
        'text/event-stream': {
          schema: { type: 'string', description: 'Server-sent event frames (WHATWG HTML, 9.2).' },
          'x-stream-event': ref(sse.event),
          'x-stream-end': ref(sse.end),
        },
      },
    },
  }
  for (const [status, codes] of problemStatuses({ ...sse, errors: [...sse.errors] })) {
    responses[status] = problemResponse(codes)
  }
  return {
    operationId: sse.id,
    summary: sse.summary,
    description: `${sse.description}\n\n${accessNote(sse)}`,
    tags: [sse.tag],
    security: securityOf(sse.scope),
    'x-required-scope': sse.scope,
    parameters: [
      ...parametersOf(sse.query, 'query', ref),
      header('Last-Event-ID', 'The `id` of the last frame received: the stream resumes after it.'),
    ],
    responses,
  }
}

const stringHeader = (description: string): Json => ({ description, schema: { type: 'string' } })

/** The headers a successful answer carries. */
function responseHeaders(
  op: Pick<AnyOperation, 'method' | 'scope'> &
    Partial<Pick<AnyOperation, 'etag' | 'precondition' | 'location' | 'reads'>>,
): Record<string, Json> {
  return {
    RateLimit: stringHeader(
      'What is left of the rate limit: `"default";r=<remaining>;t=<seconds to reset>`.',
    ),
    'RateLimit-Policy': stringHeader('The rate limit: `"default";q=<requests>;w=<window seconds>`.'),
    ...(op.etag || op.precondition ? { ETag: stringHeader('Strong validator of the representation.') } : {}),
    ...(op.location ? { Location: stringHeader('The URL path of the new resource.') } : {}),
    ...(op.method === 'POST' && op.scope && op.reads !== true
      ? { 'Idempotency-Replayed': stringHeader('`true` when an Idempotency-Key replayed a stored response.') }
      : {}),
  }
}

function parametersOf(
  schema: TObject | undefined,
  where: 'path' | 'query',
  ref: (s: TSchema) => Json,
): Json[] {
  if (!schema) return []
  const required = new Set(schema.required ?? [])
  return Object.entries(schema.properties).map(([name, prop]) => {
    const { description, ...rest } = ref(prop) as Json
    // An empty query value is refused whatever the parameter (kernel/pipeline/query-strings.ts): a
    // schema that admits empty text says it does not.
    if (where === 'query' && admitsEmptyText(rest)) rest.minLength = 1
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(description ? { description } : {}),
      schema: rest,
    }
  })
}

/** Whether the schema admits the empty string: text with no enum, const, format or length that refuses it. */
function admitsEmptyText(node: Json): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type]
  return (
    types.includes('string') &&
    node.enum === undefined &&
    node.const === undefined &&
    node.format === undefined &&
    !(typeof node.minLength === 'number' && node.minLength >= 1) &&
    (typeof node.pattern !== 'string' || new RegExp(node.pattern, 'u').test(''))
  )
}

function header(name: string, description: string, rules: Json = {}): Json {
  return { name, in: 'header', required: false, description, schema: { type: 'string', ...rules } }
}

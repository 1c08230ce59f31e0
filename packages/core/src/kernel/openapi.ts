import { type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { accessNote } from './access-note.ts'
import { bodySchemaName } from './body-names.ts'
import { ETAG_LIST_PATTERN } from './canonical.ts'
import type { AnyOperation } from './operation.ts'
import { isOrgScoped, isWrite } from './operation.ts'
import { SCOPES, type Scope } from './principal.ts'
import { COMMON_PROBLEM_EXTENSIONS, PROBLEM_EXTENSIONS } from './problem-extensions.ts'
import { PROBLEMS, type ProblemCode } from './problems.ts'

type Json = Record<string, unknown>

export interface OpenApiOptions {
  /** The service origin, e.g. `https://work.example.com`. */
  serverUrl: string
  version: string
  /** Tag descriptions; tags appear in this order. */
  tags?: Readonly<Record<string, string>>
  /** Endpoints that answer with an open event stream, listed after the operations. */
  eventStreams?: readonly EventStreamEndpoint[]
  /**
   * Schemas that stand in, in the document, for the catalogue's schema of the same `$id`: one the
   * catalogue alone cannot build, such as the `StreamEvent` union of every group's event kinds.
   */
  components?: Readonly<Record<string, TSchema>>
}

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

/**
 * Whether the document describes the operation: the API is what lives under `/v1`. A catalogue
 * operation outside it is a browser's landing, served by the same pipeline but called by no client
 * (`connectors.callback` at `/connectors/callback`, where a provider redirects a person's browser),
 * and so, like the `/oauth/*` pages, not part of the contract.
 */
export function isApiOperation(op: AnyOperation): boolean {
  return op.path.startsWith('/v1/')
}

/** The OpenAPI 3.1 document of the API under `/v1`, as a pure function of the operation catalogue. */
export function generateOpenApi(operations: readonly AnyOperation[], options: OpenApiOptions): Json {
  const schemas: Record<string, Json> = problemSchemas()
  const paths: Record<string, Record<string, Json>> = {}
  const replaced = new Set(Object.keys(options.components ?? {}))
  for (const [name, schema] of Object.entries(options.components ?? {})) {
    const { $id: _id, ...rest } = schema
    schemas[name] = collect(rest as TSchema, schemas, replaced)
  }
  const ref = (schema: TSchema) => collect(schema, schemas, replaced)
  const described = operations.filter(isApiOperation)
  const named = namedBodies()
  for (const op of described) {
    const object = operationObject({ ...op, body: named(op) }, ref)
    paths[op.path] = { ...paths[op.path], [op.method.toLowerCase()]: object }
  }
  const streams = options.eventStreams ?? []
  for (const stream of streams) paths[stream.path] = { get: eventStreamObject(stream, ref) }
  const used = new Set([...described.map((op) => op.tag), ...streams.map((s) => s.tag)])
  const ordered = [
    ...Object.keys(options.tags ?? {}).filter((t) => used.has(t)),
    ...[...used].filter((t) => !(t in (options.tags ?? {}))),
  ]
  const tags = ordered.map((name) => ({
    name,
    ...(options.tags?.[name] ? { description: options.tags[name] } : {}),
  }))
  return {
    openapi: '3.1.0',
    info: {
      title: 'workgraph API',
      version: options.version,
      summary: 'Multi-workspace work management: tasks, teams and workflows, with exact permissions.',
      description:
        'Every list is keyset-paginated (`cursor`, `limit`; `nextCursor` is null on the last page). Every failure is an RFC 9457 problem document whose `code` clients branch on. Single-resource reads carry a strong `ETag`; writes honour `If-Match`; POSTs honour `Idempotency-Key` for 24 hours.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: options.serverUrl }],
    tags,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An OAuth 2.1 access token (RFC 9068 JWT).',
        },
        // The same tokens, obtained through this server's own authorization endpoint: the
        // interactive reference signs in with it (authorization code with PKCE).
        oauth2: {
          type: 'oauth2',
          description:
            'Sign in through this server: the authorization code flow with PKCE (S256). Clients register dynamically (RFC 7591) or by a client ID metadata document.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${options.serverUrl}/oauth/authorize`,
              tokenUrl: `${options.serverUrl}/oauth/token`,
              refreshUrl: `${options.serverUrl}/oauth/token`,
              scopes: { ...SCOPES },
            },
          },
        },
      },
    },
  }
}

/**
 * Every JSON request body is a named component, so a generated client types what it sends by name:
 * the declaration's `$id` (`TaskCreate`, shared with `tasks.batchCreate`'s items), else a name
 * derived from the operation id (kernel/body-names.ts). Two operations deriving one name is an
 * error here rather than one body silently standing for the other.
 */
function namedBodies(): (op: AnyOperation) => TSchema | undefined {
  const owners = new Map<string, string>()
  return (op) => {
    const body = op.body as TSchema | undefined
    if (!body || typeof body.$id === 'string') return body
    const name = bodySchemaName(op.id)
    const owner = owners.get(name)
    if (owner !== undefined && owner !== op.id)
      throw new Error(
        `The request bodies of ${owner} and ${op.id} would both be named ${name}: give one an $id`,
      )
    owners.set(name, op.id)
    return { ...body, $id: name }
  }
}

/** Either scheme carries the same bearer token; both name the scope the operation needs. */
function securityOf(scope: Scope): Json[] {
  return [{ bearerAuth: [scope] }, { oauth2: [scope] }]
}

function operationObject(op: AnyOperation, ref: (s: TSchema) => Json): Json {
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
function eventStreamObject(sse: EventStreamEndpoint, ref: (s: TSchema) => Json): Json {
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

function problemResponse(codes: ProblemCode[]): Json {
  return {
    description: codes.map((c) => `\`${c}\`: ${PROBLEMS[c].title}`).join('; '),
    content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
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

/** Every problem an operation can answer with, grouped by status. */
function problemStatuses(
  op: Pick<AnyOperation, 'method' | 'path' | 'scope' | 'errors'> &
    Partial<Pick<AnyOperation, 'capability' | 'body' | 'precondition' | 'reads' | 'writes'>>,
): Map<string, ProblemCode[]> {
  const codes = new Set<ProblemCode>([
    // A request the HTTP layer cannot even route (a malformed percent-escape in its path).
    'bad_request',
    'validation_failed',
    'invalid_identifier',
    'not_acceptable',
    'rate_limited',
    'internal_error',
    'service_unavailable',
    ...op.errors,
  ])
  const add = (...list: ProblemCode[]) => {
    for (const c of list) codes.add(c)
  }
  // A token that is sent is always verified, even where none is needed.
  add('unauthenticated')
  if (op.scope) add('insufficient_scope')
  if (op.capability) codes.add('capability_required')
  // Every operation with a precondition read honours If-Match.
  if (op.precondition) codes.add('precondition_failed')
  if (isOrgScoped(op)) codes.add('not_found')
  add('payload_too_large', 'headers_too_large')
  if (op.body) add('invalid_json', 'unsupported_media_type')
  // A unique key taken by a concurrent request surfaces as a conflict on any write.
  const write = op.method !== 'GET' && op.reads !== true
  if (write) add('conflict')
  if (write && op.method === 'POST' && op.scope) codes.add('idempotency_key_reused')
  if (write && isOrgScoped(op)) codes.add('archived')
  const byStatus = new Map<string, ProblemCode[]>()
  for (const code of [...codes].sort()) {
    const status = String(PROBLEMS[code].status)
    byStatus.set(status, [...(byStatus.get(status) ?? []), code])
  }
  return new Map([...byStatus].sort(([a], [b]) => Number(a) - Number(b)))
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
    // An empty query value is refused whatever the parameter (kernel/query-strings.ts): a schema
    // that admits empty text says it does not.
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

function header(name: string, description: string, rules: Json = {}): Json {
  return { name, in: 'header', required: false, description, schema: { type: 'string', ...rules } }
}

const YEAR_ONE_ON = '^(?!0000)'
/** Any text but U+0000 and unpaired surrogates (in Unicode mode a pair is one code point). */
export const STORABLE_TEXT = '^[^\\u0000\\uD800-\\uDFFF]*$'

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

function isFreeText(node: Json): boolean {
  const types = Array.isArray(node.type) ? node.type : [node.type]
  return (
    types.includes('string') &&
    node.pattern === undefined &&
    node.format === undefined &&
    node.enum === undefined &&
    node.const === undefined
  )
}

/** Plain JSON Schema of a TypeBox schema, with every `$id`'d sub-schema moved to components. */
function collect(schema: TSchema, schemas: Record<string, Json>, replaced: ReadonlySet<string>): Json {
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk)
    if (node === null || typeof node !== 'object') return node
    const { $id, ...rest } = node as Json
    if (typeof $id === 'string' && replaced.has($id)) return { $ref: `#/components/schemas/${$id}` }
    // A recursive schema (TypeBox's `Type.Recursive`, the task filter) refers to itself by its `$id`.
    if (typeof rest.$ref === 'string' && !rest.$ref.startsWith('#'))
      return { ...rest, $ref: `#/components/schemas/${rest.$ref}` }
    const plain = Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, walk(v)]))
    const unionType = typeOfUnion(rest)
    if (unionType) plain.type = unionType
    // RFC 3339 admits the year 0000; the server stores the years 1 to 9999 (kernel/formats.ts) and
    // refuses it: the pattern says so, for generators and validators that read only the document.
    if ((plain.format === 'date' || plain.format === 'date-time') && plain.pattern === undefined)
      plain.pattern = YEAR_ONE_ON
    // Text is stored as the databases can hold it: no U+0000 and no unpaired surrogate anywhere
    // (kernel/validation.ts refuses them with 400 `validation_failed`). Free text says so by a
    // pattern, read in Unicode mode as JSON Schema validators read it; ids, formats, enums and
    // patterns of their own already exclude both.
    if (isFreeText(plain)) plain.pattern = STORABLE_TEXT
    if (typeof $id === 'string') {
      // Two different schemas under one name would silently describe one with the other.
      if (schemas[$id] && JSON.stringify(schemas[$id]) !== JSON.stringify(plain))
        throw new Error(`Two different schemas share the $id ${$id}`)
      schemas[$id] ??= plain
      return { $ref: `#/components/schemas/${$id}` }
    }
    return plain
  }
  return walk(JSON.parse(JSON.stringify(schema))) as Json
}

/**
 * The `type` list of a bare `anyOf` whose members all declare their types: some document readers
 * (the interactive reference's among them) refuse a union without a `type` beside it.
 */
function typeOfUnion(node: Json): string[] | undefined {
  const members = node.anyOf
  if (!Array.isArray(members) || node.type !== undefined) return undefined
  const types = new Set<string>()
  for (const member of members as Json[]) {
    const type = member?.type
    if (typeof type === 'string') types.add(type)
    else if (Array.isArray(type)) for (const t of type) types.add(t as string)
    else return undefined
  }
  return [...types]
}

/** `capability_required` → `ProblemCapabilityRequired`: the component of a code's problem variant. */
const variantName = (code: string) =>
  `Problem${code.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}`

/**
 * The problem document as a union discriminated by `code`: one variant per code that carries members
 * of its own (kernel/problem-extensions.ts), and one for every other code. Clients branch on `code`.
 */
function problemSchemas(): Record<string, Json> {
  const base = (code: Json, extra: TProperties = {}) => {
    const properties = plainProperties({ ...COMMON_PROBLEM_EXTENSIONS, ...extra })
    return {
      type: 'object',
      required: ['type', 'title', 'status', 'detail', 'code', ...properties.required],
      properties: {
        type: {
          type: 'string',
          format: 'uri',
          description: '`{server}/problems/{code with hyphens}`: a page on the server about the code.',
        },
        title: { type: 'string' },
        status: { type: 'integer' },
        detail: { type: 'string' },
        code,
        errors: {
          type: 'array',
          items: {
            type: 'object',
            required: ['pointer', 'message'],
            properties: {
              pointer: { type: 'string', description: 'JSON Pointer into the request.' },
              message: { type: 'string' },
            },
          },
        },
        ...properties.properties,
      },
    }
  }
  // The kernel's codes and the groups' in one order that does not depend on which group loads first.
  const codes = (Object.keys(PROBLEMS) as ProblemCode[]).sort()
  const typed = codes.filter((c) => PROBLEM_EXTENSIONS[c])
  const others = codes.filter((c) => !PROBLEM_EXTENSIONS[c])
  const schemas: Record<string, Json> = {}
  const mapping: Record<string, string> = {}
  for (const code of typed) {
    schemas[variantName(code)] = {
      ...base({ type: 'string', const: code }, PROBLEM_EXTENSIONS[code]),
      description: `A \`${code}\` problem: ${PROBLEMS[code].title}.`,
    }
    mapping[code] = `#/components/schemas/${variantName(code)}`
  }
  schemas.ProblemOther = {
    ...base({ type: 'string', enum: others }),
    description: 'A problem of a code that carries no members of its own.',
  }
  for (const code of others) mapping[code] = '#/components/schemas/ProblemOther'
  schemas.Problem = {
    type: 'object',
    description: 'An RFC 9457 problem document. Branch on `code`; each code’s own members are typed.',
    oneOf: [...typed.map((c) => ({ $ref: mapping[c] })), { $ref: '#/components/schemas/ProblemOther' }],
    discriminator: { propertyName: 'code', mapping },
    'x-problem-codes': Object.fromEntries(codes.map((code) => [code, PROBLEMS[code]])),
  }
  return schemas
}

/** TypeBox properties as plain JSON Schema, with the names of the required ones. */
function plainProperties(properties: TProperties): { properties: Json; required: string[] } {
  const object = JSON.parse(JSON.stringify(Type.Object(properties))) as Json
  return {
    properties: object.properties as Json,
    required: (object.required as string[] | undefined) ?? [],
  }
}

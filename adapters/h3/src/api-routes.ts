import {
  type AnyOperation,
  type Engine,
  isProblem,
  isWrite,
  type Principal,
  ProblemError,
} from '@workgraph/core'
import type { H3, H3Event } from 'h3'
import { authenticate } from './authenticate.ts'
import { acceptsJson, parseJsonBody, parseQuery, readLimitedText, streamedBody } from './http-request.ts'
import {
  bearerChallenge,
  CORS_HEADERS,
  corsPreflight,
  fileResponse,
  internalError,
  json,
  problem,
} from './http-response.ts'

export interface ApiRoutesOptions {
  /** Called with every unexpected (non-problem) error; the client only sees a plain 500. */
  onError?: (error: unknown, request: Request) => void
}

/** Registers every catalogue operation on the app: one route per path, dispatching on the method. */
export function registerApiRoutes(app: H3, engine: Engine, options: ApiRoutesOptions = {}): void {
  const byPath = new Map<string, Map<string, AnyOperation>>()
  for (const op of engine.operations) {
    const methods = byPath.get(op.path) ?? new Map<string, AnyOperation>()
    methods.set(op.method, op)
    byPath.set(op.path, methods)
  }
  const byId = new Map(engine.operations.map((op) => [op.id, op]))
  // A created resource's read path, filled per request from a template made once per operation.
  const locations = new Map<string, LocationTemplate>()
  for (const op of engine.operations) {
    const read = op.location ? byId.get(op.location) : undefined
    if (read) locations.set(op.id, locationTemplate(read))
  }
  const resourceMetadata = `${engine.config.baseUrl}/.well-known/oauth-protected-resource/v1`

  for (const [path, methods] of byPath) {
    const allow = [...methods.keys(), 'OPTIONS']
    app.all(toRoute(path), async (event) => {
      const request = event.req
      if (request.method === 'OPTIONS') return corsPreflight(allow)
      const operation =
        methods.get(request.method) ?? (request.method === 'HEAD' ? methods.get('GET') : undefined)
      const headers: Record<string, string> = { ...CORS_HEADERS }
      const seen = { hadToken: false }
      let principal: Principal | null = null
      try {
        if (!operation)
          throw new ProblemError(
            'method_not_allowed',
            `${request.method} is not allowed here; use ${allow.join(', ')}.`,
          )
        if (!acceptsJson(request.headers.get('accept'), operation.file?.mediaType)) {
          throw new ProblemError(
            'not_acceptable',
            'This API answers with application/json (and application/problem+json for errors).',
          )
        }
        // The token's revocation check rides on the request's first read (`engine.execute`).
        principal = await authenticate(event, engine, headers, seen, { deferLiveCheck: true })
        if (operation.scope && !principal)
          throw new ProblemError('unauthenticated', 'Send `Authorization: Bearer <access token>`.')

        const body = operation.streamBody
          ? streamedBody(request, operation.streamBody.maxBytes(engine.config))
          : await jsonBody(event, operation, engine.config.maxBodyBytes)
        const result = await engine.execute(
          operation.id,
          { params: event.context.params ?? {}, query: parseQuery(event.url.searchParams), body },
          principal,
          optionsFrom(request, operation),
        )
        if (result.etag) headers.etag = result.etag
        if (result.replayed) headers['idempotency-replayed'] = 'true'
        const location = locations.get(operation.id)
        if (location && result.status === 201)
          headers.location = fillPath(
            location,
            event.context.params ?? {},
            Object(result.body) as Record<string, unknown>,
          )
        if (request.method === 'HEAD') return new Response(null, { status: result.status, headers })
        if (operation.file) return fileResponse(engine, operation.file, result.body, headers)
        return json(result.status, result.body, headers)
      } catch (caught) {
        // Refused before the engine read anything (a bad body, a header): a dead token's 401 first.
        const error =
          isProblem(caught) && caught.code !== 'unauthenticated'
            ? await engine.tokens.confirmLive(principal).then(
                () => caught,
                (dead: unknown) => dead,
              )
            : caught
        if (isProblem(error)) {
          const extra: Record<string, string> =
            error.code === 'method_not_allowed'
              ? { allow: allow.join(', ') }
              : // The rest of a refused body is not read: the connection cannot carry another request.
                error.code === 'payload_too_large'
                ? { connection: 'close' }
                : {}
          return problem(error, {
            ...headers,
            ...bearerChallenge(error, seen.hadToken, resourceMetadata),
            ...extra,
          })
        }
        options.onError?.(error, request)
        return problem(internalError(), headers)
      }
    })
  }
}

async function jsonBody(event: H3Event, operation: AnyOperation, limit: number): Promise<unknown> {
  const request = event.req
  const text = await readLimitedText(request, limit, event.runtime?.node?.req)
  // A body sent to an operation that takes none is refused as such, whatever its type or syntax.
  return operation.body ? parseJsonBody(text, request.headers.get('content-type')) : text
}

function optionsFrom(request: Request, operation: AnyOperation) {
  const get = (name: string) => request.headers.get(name) ?? undefined
  // Only a POST with a token honours the key (and declares it, 1 to 255 characters); elsewhere it is ignored.
  // A read by POST (`tasks.query`) ignores it, as a GET does.
  const idempotencyKey =
    operation.method === 'POST' && operation.scope && isWrite(operation) ? get('idempotency-key') : undefined
  if (idempotencyKey !== undefined && (idempotencyKey.length === 0 || idempotencyKey.length > 255)) {
    throw new ProblemError('validation_failed', 'Idempotency-Key must be 1 to 255 characters.', {
      errors: [{ pointer: '/headers/idempotency-key', message: '1 to 255 characters' }],
    })
  }
  return {
    ...(get('if-match') ? { ifMatch: get('if-match') } : {}),
    ...(get('if-none-match') ? { ifNoneMatch: get('if-none-match') } : {}),
    ...(idempotencyKey ? { idempotencyKey } : {}),
  }
}

/** `/v1/orgs/{orgId}` → `/v1/orgs/:orgId`. */
function toRoute(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1')
}

/** A read's path cut at its parameters: `/v1/orgs/{orgId}/tasks/{taskId}` → texts and names. */
interface LocationTemplate {
  texts: string[]
  names: string[]
}

function locationTemplate(operation: AnyOperation): LocationTemplate {
  const parts = operation.path.split(/\{(\w+)\}/)
  return { texts: parts.filter((_p, i) => i % 2 === 0), names: parts.filter((_p, i) => i % 2 === 1) }
}

/** The URL path of a read: its last parameter is the new resource's `id`, the others the request's params (else the resource's fields). */
function fillPath(
  template: LocationTemplate,
  params: Record<string, string>,
  created: Record<string, unknown>,
): string {
  const { texts, names } = template
  let path = texts[0]!
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!
    const value = i === names.length - 1 ? created.id : name in created ? created[name] : params[name]
    path += String(value) + texts[i + 1]!
  }
  return path
}

import type { TSchema } from '@sinclair/typebox'
import { SCOPES } from '../auth/principal.ts'
import type { AnyOperation } from '../operation.ts'
import { bodySchemaName } from './body-names.ts'
import { type EventStreamEndpoint, eventStreamObject, operationObject } from './paths.ts'
import { problemSchemas } from './problems.ts'
import { collect } from './schemas.ts'

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
 * derived from the operation id (kernel/openapi/body-names.ts). Two operations deriving one name is an
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

import type { DnsTxtResolver } from '@workgraph/core'
import { type RunningServer, type ServerOptions, startServer } from '@workgraph/server'
import { sampleConnectors } from './connectors.ts'
import type { TestDatabase } from './databases.ts'
import { createResponseValidator } from './openapi-validator.ts'
import { recordingMailer } from './outbox.ts'

export interface ApiResponse<T = any> {
  status: number
  headers: Headers
  body: T
}

export interface RequestOptions {
  token?: string | null
  body?: unknown
  /** Sent as is, instead of JSON.stringify(body). */
  rawBody?: string | Uint8Array
  headers?: Record<string, string>
}

export interface TestServer extends RunningServer {
  /** Checks one response against the OpenAPI document (what `request` does to every answer). */
  validate: ResponseValidator
  /** Sends a request and checks the response against the OpenAPI document before returning it. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<ApiResponse<T>>
  /** A client bound to one token. */
  as(token: string): {
    get<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>
    post<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>
    patch<T = any>(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>
    delete<T = any>(path: string, headers?: Record<string, string>): Promise<ApiResponse<T>>
    put<T = any>(path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>
  }
}

const TEST_PASSWORD_COST = 10

const NO_DNS: DnsTxtResolver = {
  resolveTxt: () => Promise.reject(Object.assign(new Error('no such name'), { code: 'ENOTFOUND' })),
}

// One validator per catalogue and process: compiling the document's schemas takes most of a second,
// and every server of a run serves the same catalogue.
type ResponseValidator = ReturnType<typeof createResponseValidator>
const validators = new WeakMap<object, ResponseValidator>()

async function validatorFor(running: RunningServer) {
  let validate = validators.get(running.engine.operations)
  if (!validate) {
    const response = await running.fetch(new Request(`${running.url}/v1/openapi.json`))
    validate = createResponseValidator((await response.json()) as Record<string, unknown>)
    validators.set(running.engine.operations, validate)
  }
  return validate
}

/**
 * The h3 server on a fresh database. It listens on a real socket (at `url`, for streams, raw
 * sockets and child processes), while `request` and `as` answer in-process through the same app:
 * the same routes, headers and bodies, without a connection's cost.
 */
export async function startTestServer(
  db: TestDatabase,
  options: Partial<ServerOptions> = {},
): Promise<TestServer & { drop(): Promise<void> }> {
  const target = await db.fresh()
  const running = await startServer({
    databaseUrl: target.url,
    ...(target.directUrl ? { databaseDirectUrl: target.directUrl } : {}),
    ...(target.schema ? { databaseSchema: target.schema } : {}),
    onError: (error) => console.error('unexpected server error', error),
    ...options,
    // Password hashes at scrypt's cheapest accepted cost (PASSWORD_HASH_COST=10, 2^10 rather than
    // 2^17): a sign-up or sign-in costs a millisecond instead of a tenth of a second or, with both
    // cores busy, several. What the tests check of passwords does not depend on the cost.
    oauth: { passwordCost: TEST_PASSWORD_COST, ...options.oauth },
    // Every mail is recorded, so a test can follow the link a person would (support/outbox.ts).
    mailer: recordingMailer(options.mailer),
    // Every suite can run the connector operations against a stand-in GitHub (support/connectors.ts).
    // No suite reaches real DNS: domain checks find no record unless a suite passes its own resolver.
    config: { connectors: sampleConnectors(), dns: NO_DNS, ...options.config },
  })
  const validate = await validatorFor(running)

  async function request<T>(method: string, path: string, o: RequestOptions = {}): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = { ...o.headers }
    if (o.token) headers.authorization = `Bearer ${o.token}`
    let body: string | Uint8Array | undefined = o.rawBody
    if (o.body !== undefined) {
      body = JSON.stringify(o.body)
      headers['content-type'] ??= 'application/json'
    }
    // A client over a socket declares the length of a body it holds whole; so does this one.
    if (body !== undefined) headers['content-length'] ??= String(Buffer.byteLength(body))
    const response = await running.fetch(
      new Request(`${running.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) }),
    )
    const text = await response.text()
    const type = response.headers.get('content-type')
    const parsed = text && type?.includes('json') ? JSON.parse(text) : text
    validate(method, path.split('?')[0]!, response.status, type, parsed)
    return { status: response.status, headers: response.headers, body: parsed as T }
  }

  return {
    ...running,
    validate,
    request,
    as(token) {
      return {
        get: (path, headers) => request('GET', path, { token, ...(headers ? { headers } : {}) }),
        post: (path, body, headers) =>
          request('POST', path, { token, body, ...(headers ? { headers } : {}) }),
        patch: (path, body, headers) =>
          request('PATCH', path, { token, body, ...(headers ? { headers } : {}) }),
        delete: (path, headers) => request('DELETE', path, { token, ...(headers ? { headers } : {}) }),
        put: (path, body, headers) => request('PUT', path, { token, body, ...(headers ? { headers } : {}) }),
      }
    },
    async drop() {
      await running.close()
      await target.drop()
    },
  }
}

/** A problem document without its per-response request id, to compare two answers. */
export function withoutRequestId(body: unknown): unknown {
  if (body === null || typeof body !== 'object') return body
  const { requestId: _requestId, ...rest } = body as Record<string, unknown>
  return rest
}

import { createHash } from 'node:crypto'
import { transformOas3Operations } from '@stoplight/http-spec/oas3/operation'
import { bundleTarget } from '@stoplight/json'
import { createInstance, type IHttpConfig, type IHttpResponse } from '@stoplight/prism-http'
import type { IHttpOperation } from '@stoplight/types'

/**
 * Stoplight Prism (`@stoplight/prism-http`), in-process, in proxy mode: it routes a request by the
 * document, validates it, forwards it to the server over its socket (node-fetch), and validates the
 * answer: status, headers, media type and body. An implementation the project did not write, beside
 * the project's own ajv validator (`test/support/openapi-validator.ts`).
 *
 * Prism's own loader (`getHttpOperationsFromSpec`) dereferences the whole document and then
 * `decycle`s it, walking every shared schema once per place it is used: on our document (476
 * operations, 5.5 MB pretty-printed) that takes about five minutes. Converting the document as it is,
 * with its `$ref`s, and bundling each operation with the schemas it uses (what Prism does after the
 * dereference, and what its validator reads through `__bundled__`) gives the same operations in
 * about ten seconds.
 */
export type PrismOperation = IHttpOperation
type Json = Record<string, any>

const converted = new Map<string, PrismOperation[]>()

export function prismOperations(document: Record<string, unknown>): PrismOperation[] {
  const key = createHash('sha256').update(JSON.stringify(document)).digest('hex')
  let operations = converted.get(key)
  if (!operations) {
    const source = structuredClone(document)
    operations = transformOas3Operations(source as never).map(
      (operation) =>
        bundleTarget({
          document: { ...source, __target__: operation },
          path: '#/__target__',
          cloneDocument: false,
        }) as PrismOperation,
    )
    converted.set(key, operations)
  }
  return operations
}

export interface PrismRequest {
  method: string
  /** Path and query, as sent. */
  path: string
  query?: [string, string][]
  headers?: Record<string, string>
  body?: unknown
}

export interface PrismDiagnostic {
  message: string
  code?: string | number
  path?: string[]
  severity: number
}

export interface PrismAnswer {
  status: number
  headers: Record<string, string>
  body: unknown
  /** Prism's findings on the request (any severity) and on the response (errors only). */
  input: PrismDiagnostic[]
  output: PrismDiagnostic[]
  /** False when Prism answered without asking the server (errors on, and the request invalid). */
  forwarded: boolean
}

// Prism logs through pino; the suite reads its diagnostics instead.
const silent: any = new Proxy(
  {},
  { get: (_target, name) => (name === 'child' ? () => silent : () => undefined) },
)

/**
 * A Prism proxy in front of `upstream`. `errors: true` (Prism's `--errors`): a request Prism finds
 * invalid or unauthenticated is answered by Prism (422 or 401) without reaching the server, and a
 * response that breaks the document is reported. Pass `{ errors: false, checkSecurity: false }` for
 * a request the suite means to send broken: Prism still validates both ends and forwards it.
 */
export function prismProxy(operations: PrismOperation[], upstream: string) {
  const config: IHttpConfig = {
    isProxy: true,
    upstream: new URL(upstream),
    upstreamProxy: undefined,
    errors: true,
    checkSecurity: true,
    validateRequest: true,
    validateResponse: true,
    mock: { dynamic: false },
  }
  const prism = createInstance(config, { logger: silent })
  return async function send(
    request: PrismRequest,
    override: Partial<Pick<IHttpConfig, 'errors' | 'checkSecurity'>> = {},
    retries = 2,
  ): Promise<PrismAnswer> {
    // One value is a string, a repeated parameter an array (Prism reads an array as an array value).
    const query: Record<string, string | string[]> = {}
    for (const [name, value] of request.query ?? []) {
      const before = query[name]
      query[name] = before === undefined ? value : [...(Array.isArray(before) ? before : [before]), value]
    }
    const result = await prism.request(
      {
        method: request.method.toLowerCase() as never,
        url: { path: request.path, query },
        headers: { accept: 'application/json', ...request.headers },
        body: request.body,
      },
      operations,
      { ...config, ...override },
    )()
    if (result._tag === 'Left') {
      // With errors on, Prism answers an invalid or unauthenticated request itself (a problem
      // document), and the server never sees it.
      const error = result.left as Error & {
        status?: number
        code?: string
        additional?: { validation?: Json[] }
      }
      // node-fetch reuses kept-alive connections, and the server may have closed one (after a 413,
      // say): the request never reached it, so it goes again on a fresh one.
      if (error.code === 'ECONNRESET' && retries > 0) return send(request, override, retries - 1)
      if (!error.status || !error.additional?.validation) throw error
      const input = error.additional.validation.map((v) => ({
        message: String(v.message),
        code: v.code,
        path: v.location,
        severity: v.severity === 'Error' ? 0 : 1,
      }))
      // Warnings alone (a parameter the document does not declare, say) do not stop a real client.
      if (input.every((d) => d.severity !== 0)) return send(request, { ...override, errors: false })
      return { status: error.status, headers: {}, body: undefined, input, output: [], forwarded: false }
    }
    const { output, validations } = result.right as {
      output: IHttpResponse
      validations: { input: PrismDiagnostic[]; output: PrismDiagnostic[] }
    }
    return {
      status: output.statusCode,
      headers: (output.headers ?? {}) as Record<string, string>,
      body: output.body,
      input: validations.input.filter((d) => d.severity === 0),
      // DiagnosticSeverity.Error is 0; warnings (an undocumented header, say) are not failures.
      output: validations.output.filter((d) => d.severity === 0),
      forwarded: true,
    }
  }
}

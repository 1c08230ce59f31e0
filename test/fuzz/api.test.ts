import { request as httpRequest } from 'node:http'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { sized } from '../support/tier.ts'
import { schemaArbitraries } from './arbitraries.ts'
import { type Draft, mutations } from './mutations.ts'
import { judge } from './oracle.ts'
import { type Json, newWorld, type Operation, operationsOf, type World } from './world.ts'

// Cases per operation and database, under a seed that rotates every run (FUZZ_SEED replays one).
const RUNS = sized('FUZZ_RUNS', { test: 2, deep: 100 })
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31))
// Operations that share one world before a fresh one is made (at the next tag).
const WORLD_SIZE = 30
const MAX_BODY_BYTES = 1_048_576

describeEachDatabase('schema-driven fuzzing of every operation', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let document: Json
  const unexpected: unknown[] = []
  beforeAll(async () => {
    server = await startTestServer(db, {
      config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
      onError: (error) => unexpected.push(error),
    })
    document = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as Json
  })
  afterAll(() => server.drop())

  it(`answers ${RUNS} generated and mutated requests per operation without a 5xx, with catalogued problems and valid bodies (seed ${SEED})`, async () => {
    const { validate } = server
    const failures = new Map<string, string>()
    const cursors: string[] = []
    let requests = 0
    let world: World | undefined
    let used = 0
    const operations = operationsOf(document)
    for (const [index, op] of operations.entries()) {
      // A fresh world every few tags, so deletions and archives leave the next operations something to hit.
      if (!world || (used >= WORLD_SIZE && op.tag !== operations[index - 1]?.tag)) {
        world = await newWorld(server)
        used = 0
      }
      used++
      const arbitrary = requestArbitrary(op, schemaArbitraries(document, world.pool), cursors, world.tokens)
      for (const { draft, token, mutation } of fc.sample(arbitrary, { numRuns: RUNS, seed: SEED + index })) {
        requests++
        const sent: Sent = await send(server.url, op, draft, token).catch((error: Error) => ({
          status: 599,
          contentType: '',
          text: `the connection failed: ${error.message}`,
          json: undefined,
          path: op.path,
        }))
        // A raw or empty path parameter leaves a URL that may name another resource (`/v1/me/away/` is
        // the collection, whose methods differ): judged as any route, not by this operation's list.
        const ownPath = draft.rawParams.size === 0 && !Object.values(draft.params).includes('')
        let problem = judge(sent, ownPath ? op.spec : undefined)
        if (!problem && ownPath && !sent.contentType.startsWith('text/event-stream')) {
          try {
            validate(op.method, sent.path, sent.status, sent.contentType, sent.json ?? sent.text)
          } catch (error) {
            problem = (error as Error).message.slice(0, 300)
          }
        }
        if (sent.status < 300 && typeof sent.json?.nextCursor === 'string') cursors.push(sent.json.nextCursor)
        const key = `${op.id} ${problem?.split(':')[0]}`
        if (problem && !failures.has(key))
          failures.set(key, `${op.id} [${mutation}] ${problem}\n    ${describe(op, draft)}`)
      }
    }
    console.log(`fuzz [${db.name}] seed ${SEED}: ${requests} requests, ${failures.size} distinct failures`)
    expect([...failures.values()], `seed ${SEED}`).toEqual([])
    expect(unexpected).toEqual([])
  }, 900_000)
})

function requestArbitrary(
  op: Operation,
  schemas: ReturnType<typeof schemaArbitraries>,
  cursors: string[],
  tokens: (string | null)[],
) {
  const parameters: Json[] = op.spec.parameters ?? []
  const param = (p: Json) =>
    // Long polls would stall the run; the wait itself is covered by the stream tests.
    p.name === 'wait' ? fc.constant(0) : schemas.valid(p.schema)
  const path = fc.record(
    Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, param(p)])),
  )
  const queryParameters = parameters.filter((p) => p.in === 'query')
  const query = fc.record(Object.fromEntries(queryParameters.map((p) => [p.name, param(p)])), {
    requiredKeys: queryParameters.filter((p) => p.required).map((p) => p.name as string) as never[],
  })
  const bodySchema = op.spec.requestBody?.content?.['application/json']?.schema
  const body = bodySchema ? schemas.valid(bodySchema) : fc.constant(undefined)
  return fc
    .record({
      params: path,
      query,
      body,
      token: fc.constantFrom(...tokens),
      mutation: fc.option(mutations(cursors), { freq: 2 }),
    })
    .map(({ params, query, body, token, mutation }) => {
      const draft: Draft = {
        params: Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])),
        rawParams: new Set(),
        query: Object.entries(query).map(([k, v]) => [k, String(v)]),
        headers: {},
        body,
      }
      mutation?.apply(draft)
      return { draft, token, mutation: mutation?.name ?? 'valid' }
    })
}

/** Sends over node:http rather than fetch, which refuses a GET body and normalises odd paths. */
async function send(base: string, op: Operation, draft: Draft, token: string | null) {
  const path = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    const value = draft.params[name] ?? ''
    return draft.rawParams.has(name) ? value : value.replace(/[^A-Za-z0-9\-._~]/gu, escapeBytes)
  })
  const search = new URLSearchParams(draft.query).toString()
  const headers: Record<string, string> = { ...draft.headers }
  if (token) headers.authorization = `Bearer ${token}`
  let body = draft.rawBody
  if (body === undefined && draft.body !== undefined) body = JSON.stringify(draft.body)
  if (body !== undefined) {
    headers['content-type'] ??= 'application/json'
    headers['content-length'] = String(Buffer.byteLength(body))
  }
  const target = new URL(base)
  return new Promise<Sent>((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        // A fresh connection each time: a reused one may be the one a 413 just closed.
        agent: false,
        method: op.method,
        // Raw segments go as they are; anything outside printable ASCII is escaped so the request can be written.
        path: `${path.replace(/[^\x21-\x7e]/gu, (c) => escapeBytes(c))}${search ? `?${search}` : ''}`,
        headers,
      },
      (response) => {
        const contentType = String(response.headers['content-type'] ?? '')
        if (contentType.startsWith('text/event-stream')) {
          response.destroy()
          resolve({ status: response.statusCode!, contentType, text: '', json: undefined, path })
          return
        }
        const chunks: Buffer[] = []
        response.on('data', (c: Buffer) => chunks.push(c))
        response.on('error', reject)
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8')
          let json: any
          try {
            if (contentType.includes('json') && text) json = JSON.parse(text)
          } catch (error) {
            reject(error)
            return
          }
          resolve({ status: response.statusCode!, contentType, text, json, path })
        })
      },
    )
    request.on('error', (error: NodeJS.ErrnoException) => {
      // Over the body limit, the server answers 413 from Content-Length and closes the connection
      // without reading the rest: a client still writing sees the reset instead.
      const overLimit = body !== undefined && Buffer.byteLength(body) > MAX_BODY_BYTES
      if (overLimit && (error.code === 'ECONNRESET' || error.code === 'EPIPE'))
        resolve({
          status: 413,
          contentType: 'application/problem+json',
          text: '{"code":"payload_too_large","status":413,"type":"","title":"","detail":""}',
          json: undefined,
          path,
        })
      else reject(error)
    })
    request.end(body)
  })
}

function escapeBytes(text: string): string {
  return [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, '0').toUpperCase()}`).join('')
}

interface Sent {
  status: number
  contentType: string
  text: string
  json: any
  path: string
}

function describe(op: Operation, draft: Draft): string {
  const text = JSON.stringify({
    params: draft.params,
    query: draft.query,
    headers: draft.headers,
    body: draft.rawBody ?? draft.body,
  })
  return `${op.method} ${op.path} ${text.length > 400 ? `${text.slice(0, 400)}…` : text}`
}

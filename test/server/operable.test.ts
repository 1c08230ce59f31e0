/**
 * What an operator relies on: settings checked at start (with `.env`), a clear refusal of a port
 * already held, request ids in headers, problems and logs, probes outside `/v1`, compressed large
 * bodies, and `GET /` leading somewhere.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { RequestRecord } from '@workgraph/h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bindServer, PortInUseError } from '../../packages/server/src/listen.ts'
import { createLogger } from '../../packages/server/src/logger.ts'
import { readSettings, SettingsError } from '../../packages/server/src/settings.ts'
import { startTestServer, type TestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/** A raw GET that does not decompress, so the test sees the encoding on the wire. */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{
    status: number
    headers: Record<string, string | string[] | undefined>
    body: Buffer
  }>((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
      )
    })
    req.on('error', reject)
    req.end()
  })
}

describe('settings', () => {
  it('uses the documented defaults when nothing is set', () => {
    const s = readSettings({ ENV_FILE: '' })
    expect(s).toMatchObject({
      port: 3000,
      host: 'localhost',
      logFormat: 'text',
      logLevel: 'info',
      passwordHashCost: 17,
    })
    expect(s.baseUrl).toBeUndefined()
  })

  it('reads a .env file, and the environment wins over it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'wg-env-'))
    const file = join(dir, 'settings.env')
    writeFileSync(file, 'PORT=4100\nLOG_FORMAT=json\nDATABASE_URL=./from-file.db\n')
    const s = readSettings({ ENV_FILE: file, PORT: '4200' })
    expect(s.port).toBe(4200)
    expect(s.logFormat).toBe('json')
    expect(s.databaseUrl).toBe('./from-file.db')
  })

  it('names every wrong setting at once', () => {
    let error: unknown
    try {
      readSettings({
        ENV_FILE: '',
        PORT: '70000',
        LOG_LEVEL: 'loud',
        REDIS_URL: 'http://x',
        CONNECTORS_FILE: 'c.json',
        SMTP_URL: 'smtp://mail.example:587',
        PASSWORD_HASH_COST: '9',
      })
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(SettingsError)
    const problems = (error as SettingsError).problems.join('\n')
    expect(problems).toContain('PORT=70000')
    expect(problems).toContain('LOG_LEVEL=loud')
    expect(problems).toContain('REDIS_URL=http://x')
    expect(problems).toContain('CONNECTORS_KEY')
    expect(problems).toContain('MAIL_FROM')
    expect(problems).toContain('PASSWORD_HASH_COST=9: must be a whole number from 10 to 20')
    expect(readSettings({ ENV_FILE: '', PASSWORD_HASH_COST: '20' }).passwordHashCost).toBe(20)
  })

  it('refuses a missing ENV_FILE it was told to read', () => {
    expect(() => readSettings({ ENV_FILE: '/nonexistent/workgraph.env' })).toThrow(/does not exist/)
  })
})

describe('binding the port', () => {
  it('refuses a port already held, saying what to do, and answers 503 until the app is ready', async () => {
    const first = await bindServer(0, '127.0.0.1')
    try {
      await expect(bindServer(first.port, '127.0.0.1')).rejects.toThrow(PortInUseError)
      await expect(bindServer(first.port, '127.0.0.1')).rejects.toThrow(/PORT=0 picks one/)
      const early = await fetch(`http://127.0.0.1:${first.port}/v1/config`)
      expect(early.status).toBe(503)
      expect(((await early.json()) as { code: string }).code).toBe('service_unavailable')
    } finally {
      await new Promise((resolve) => first.server.close(resolve))
    }
  })
})

describe('logs', () => {
  const record: RequestRecord = {
    method: 'GET',
    path: '/v1/config',
    status: 200,
    durationMs: 1.5,
    requestId: 'r1',
  }

  it('writes one JSON object per line with LOG_FORMAT=json', () => {
    const lines: string[] = []
    const log = createLogger(
      { format: 'json', level: 'info' },
      { log: (l) => lines.push(l), error: (l) => lines.push(l) },
    )
    log.request(record)
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'info',
      msg: 'request',
      method: 'GET',
      path: '/v1/config',
      status: 200,
      requestId: 'r1',
    })
  })

  it('keeps below LOG_LEVEL quiet, and logs a 5xx as an error', () => {
    const out: string[] = []
    const err: string[] = []
    const log = createLogger(
      { format: 'text', level: 'warn' },
      { log: (l) => out.push(l), error: (l) => err.push(l) },
    )
    log.request(record)
    log.request({ ...record, status: 503 })
    expect(out).toEqual([])
    expect(err).toEqual(['ERROR GET /v1/config 503 1.5 ms requestId=r1'])
  })

  it('writes what a background pass did only at debug', () => {
    const lines = (level: 'debug' | 'info') => {
      const out: string[] = []
      const log = createLogger(
        { format: 'text', level },
        { log: (l) => out.push(l), error: (l) => out.push(l) },
      )
      log.debug('scheduler pass', { tasks: 1, reminders: 0, failed: 0 })
      return out
    }
    expect(lines('debug')).toEqual(['DEBUG scheduler pass tasks=1 reminders=0 failed=0'])
    expect(lines('info')).toEqual([])
  })
})

describeEachDatabase('an operable server', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  const records: RequestRecord[] = []

  beforeAll(async () => {
    server = await startTestServer(db, { onRequest: (r) => records.push(r) })
  })
  afterAll(() => server?.drop())

  it('gives every response a request id, keeps a caller’s own, and puts it in problems and the log', async () => {
    const mine = await fetch(`${server.url}/v1/config`, { headers: { 'x-request-id': 'lb-1234.abc' } })
    expect(mine.headers.get('x-request-id')).toBe('lb-1234.abc')
    const hostile = await fetch(`${server.url}/v1/config`, { headers: { 'x-request-id': 'a b<script>' } })
    expect(hostile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)

    const missing = await server.request('GET', '/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE')
    expect(missing.status).toBe(401)
    expect(missing.body.requestId).toBe(missing.headers.get('x-request-id'))
    expect(missing.headers.get('access-control-expose-headers')).toContain('X-Request-Id')
    expect(records.find((r) => r.requestId === missing.body.requestId)).toMatchObject({
      method: 'GET',
      path: '/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE',
      status: 401,
    })
  })

  it('gives each problem a type URL that opens a page about its code on this server', async () => {
    const missing = await server.request('GET', '/v1/orgs/org_01JD3Q2R4S5T6V7W8X9YZABCDE')
    expect(missing.body.type).toBe(`${server.url}/problems/unauthenticated`)
    const pageOf = await fetch(missing.body.type)
    expect(pageOf.status).toBe(200)
    expect(pageOf.headers.get('content-type')).toContain('text/html')
    const html = await pageOf.text()
    expect(html).toContain('<code>unauthenticated</code>')
    expect(html).toContain('Authorization: Bearer')
    const answered = await (await fetch(`${server.url}/problems/dependency-cycle`)).text()
    expect(answered).toContain('tasks.blockers.add')
    const index = await (await fetch(`${server.url}/problems`)).text()
    expect(index).toContain('href="/problems/precondition-failed"')
    expect((await fetch(`${server.url}/problems/no-such-code`)).status).toBe(404)
  })

  it('serves liveness and readiness outside /v1, and sends a browser from / to the reference', async () => {
    expect(await (await fetch(`${server.url}/livez`)).json()).toEqual({ status: 'live' })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({
      status: 'ready',
      database: db.name,
      mail: { pending: 0, retrying: 0, failed: 0, lastError: null },
    })
    const root = await fetch(`${server.url}/`, { redirect: 'manual' })
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/v1/docs')
  })

  it('compresses large bodies as the client accepts, and leaves small ones and refusals alone', async () => {
    const plain = await rawGet(`${server.url}/v1/openapi.json`, {})
    expect(plain.headers['content-encoding']).toBeUndefined()
    const document = JSON.parse(plain.body.toString())

    const br = await rawGet(`${server.url}/v1/openapi.json`, { 'accept-encoding': 'gzip, br' })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers.vary).toContain('Accept-Encoding')
    expect(br.body.length).toBeLessThan(plain.body.length / 5)
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toEqual(document)

    const gzip = await rawGet(`${server.url}/v1/openapi.json`, { 'accept-encoding': 'gzip, br;q=0' })
    expect(gzip.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(gzip.body).toString())).toEqual(document)

    const refused = await rawGet(`${server.url}/v1/openapi.json`, { 'accept-encoding': 'identity' })
    expect(refused.headers['content-encoding']).toBeUndefined()

    const small = await rawGet(`${server.url}/livez`, { 'accept-encoding': 'br' })
    expect(small.headers['content-encoding']).toBeUndefined()
  })
})

describeEachDatabase('readiness without a database', (db) => {
  it('answers 503 on /readyz while liveness still answers', async () => {
    const server = await startTestServer(db)
    await server.storage.close()
    try {
      const ready = await fetch(`${server.url}/readyz`)
      expect(ready.status).toBe(503)
      expect(await ready.json()).toEqual({ status: 'unavailable', database: db.name })
      expect((await fetch(`${server.url}/livez`)).status).toBe(200)
    } finally {
      await new Promise((resolve) => server.server.close(resolve))
      server.server.closeAllConnections()
    }
  })
})

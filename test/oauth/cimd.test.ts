import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { CimdFetcher } from '@workgraph/core'
import { createCimdFetcher, isPublicAddress } from '@workgraph/h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { authorizeAndAllow, authorizeUrl, pkce, signUp, tokenRequest } from './support.ts'

describe('the CIMD fetcher refuses special-use addresses', () => {
  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '224.0.0.1',
    '0.0.0.0',
    '255.255.255.255',
    '192.0.2.1',
    '198.51.100.1',
    '203.0.113.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2001:db8::1',
  ])('%s', (address) => {
    expect(isPublicAddress(address)).toBe(false)
  })

  it('accepts public unicast addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true)
    expect(isPublicAddress('2606:4700::1111')).toBe(true)
  })

  const resolved: string[] = []
  const fetcher = createCimdFetcher({
    resolve: async (host) => {
      resolved.push(host)
      if (host === 'private.example') return ['10.0.0.5']
      if (host === 'mixed.example') return ['93.184.215.14', '192.168.0.7']
      if (host === 'rebind.example') return ['127.0.0.1']
      return []
    },
  })
  it.each([
    ['decimal IPv4', 'https://2130706433/client.json'],
    ['hex IPv4', 'https://0x7f000001/client.json'],
    ['short IPv4', 'https://127.1/client.json'],
    ['IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/client.json'],
    ['IPv6 loopback', 'https://[::1]/client.json'],
    ['localhost', 'https://localhost/client.json'],
    ['a localhost subdomain', 'https://app.localhost/client.json'],
    ['cloud metadata', 'https://169.254.169.254/latest'],
    ['a name resolving to a private address', 'https://private.example/client.json'],
    ['a name with one private answer among public ones', 'https://mixed.example/client.json'],
    ['plain http', 'http://93.184.215.14/client.json'],
  ])('%s', async (_name, url) => {
    await expect(fetcher.fetch(url)).rejects.toThrow(/refused|https/)
  })
})

// A local TLS server plays the client's website; the fetcher is told to trust it and to allow loopback.
const haveOpenssl = (() => {
  try {
    execFileSync('openssl', ['version'])
    return true
  } catch {
    return false
  }
})()

describe.skipIf(!haveOpenssl)('the CIMD fetcher over TLS', () => {
  let site: Server
  let origin: string
  let ca: string
  let fetcher: CimdFetcher
  const hold: Array<() => void> = []
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cimd-'))
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
        '-days',
        '1',
        '-subj',
        '/CN=cimd.test',
        '-addext',
        'subjectAltName=DNS:cimd.test',
      ],
      { stdio: 'ignore' },
    )
    ca = readFileSync(join(dir, 'cert.pem'), 'utf8')
    site = createServer({ key: readFileSync(join(dir, 'key.pem')), cert: ca }, (req, res) => {
      const doc = {
        client_id: `${origin}${req.url}`,
        client_name: 'Site App',
        redirect_uris: ['https://site.example/cb'],
      }
      if (req.url === '/redirect') return res.writeHead(302, { location: '/ok' }).end()
      if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'application/json' })
        return res.end(JSON.stringify({ ...doc, padding: 'x'.repeat(40_000) }))
      }
      if (req.url === '/slow') {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.write('{')
        return hold.push(() => res.end())
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(doc))
    })
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
    origin = `https://cimd.test:${(site.address() as AddressInfo).port}`
    fetcher = createCimdFetcher({
      resolve: async () => ['127.0.0.1'],
      isAllowedAddress: (a) => a === '127.0.0.1',
      ca,
      timeoutMs: 500,
    })
  })
  afterAll(async () => {
    for (const release of hold) release()
    site.closeAllConnections()
    await new Promise((r) => site.close(r))
  })

  it('fetches a document from the pinned address with the name checked by TLS', async () => {
    const res = await fetcher.fetch(`${origin}/ok`)
    expect(res.status).toBe(200)
    expect(JSON.parse(res.body).client_name).toBe('Site App')
  })

  it('does not follow a redirect', async () => {
    expect((await fetcher.fetch(`${origin}/redirect`)).status).toBe(302)
  })

  it('stops an oversized document', async () => {
    await expect(fetcher.fetch(`${origin}/big`)).rejects.toThrow(/too large/)
  })

  it('stops a document that never ends', async () => {
    await expect(fetcher.fetch(`${origin}/slow`)).rejects.toThrow(/timed out/)
  })

  it('refuses a certificate for another name', async () => {
    const other = createCimdFetcher({ resolve: async () => ['127.0.0.1'], isAllowedAddress: () => true })
    await expect(other.fetch(`${origin}/ok`)).rejects.toThrow()
  })
})

describeEachDatabase('Client ID Metadata Documents at the authorization server', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let base: string
  const docs = new Map<string, { status?: number; type?: string; body: unknown; cache?: string }>()
  const fetched: string[] = []
  const fake: CimdFetcher = {
    async fetch(url) {
      fetched.push(url)
      const doc = docs.get(url)
      if (!doc) throw new Error('no such document')
      return {
        status: doc.status ?? 200,
        contentType: doc.type ?? 'application/json',
        cacheControl: doc.cache ?? null,
        body: typeof doc.body === 'string' ? doc.body : JSON.stringify(doc.body),
      }
    },
  }
  beforeAll(async () => {
    server = await startTestServer(db, { oauth: { cimdFetcher: fake } })
    base = server.url
  })
  afterAll(() => server.drop())

  const REDIRECT = 'https://tool.example/cb'
  const start = (clientId: string, cookie: string, challenge: string) =>
    fetch(
      authorizeUrl(base, {
        client_id: clientId,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'work:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      { headers: { cookie }, redirect: 'manual' },
    )

  it('advertises CIMD and runs the whole flow with a URL client_id', async () => {
    const meta = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as any
    expect(meta.client_id_metadata_document_supported).toBe(true)
    const id = 'https://tool.example/oauth/client.json'
    docs.set(id, { body: { client_id: id, client_name: 'Tool <b>One</b>', redirect_uris: [REDIRECT] } })
    const { cookie } = await signUp(base)
    const { verifier, challenge } = pkce()
    const page = await start(id, cookie, challenge)
    const html = await page.text()
    expect(html).toContain('Tool &#60;b&#62;One&#60;/b&#62;')
    expect(html).toContain('tool.example')
    const location = await authorizeAndAllow(
      base,
      authorizeUrl(base, {
        client_id: id,
        redirect_uri: REDIRECT,
        response_type: 'code',
        scope: 'work:read',
        code_challenge: challenge,
        code_challenge_method: 'S256',
      }),
      cookie,
    )
    const tokens = await tokenRequest(base, {
      grant_type: 'authorization_code',
      code: location.searchParams.get('code')!,
      code_verifier: verifier,
      client_id: id,
    })
    expect(tokens.status).toBe(200)
  })

  it.each([
    [
      'client_id mismatch',
      { client_id: 'https://tool.example/other.json', client_name: 'X', redirect_uris: [REDIRECT] },
    ],
    [
      'client_id differs by a trailing slash',
      { client_id: 'URL/', client_name: 'X', redirect_uris: [REDIRECT] },
    ],
    ['no client_name', { client_id: 'URL', redirect_uris: [REDIRECT] }],
    ['no redirect_uris', { client_id: 'URL', client_name: 'X' }],
    [
      'a client secret',
      { client_id: 'URL', client_name: 'X', redirect_uris: [REDIRECT], client_secret: 's' },
    ],
    [
      'secret-based auth',
      {
        client_id: 'URL',
        client_name: 'X',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    [
      'an http redirect URI',
      { client_id: 'URL', client_name: 'X', redirect_uris: ['http://tool.example/cb'] },
    ],
    ['a JSON array', []],
  ])('refuses a document with %s, with a page and without caching', async (name, body) => {
    const id = `https://tool.example/bad/${name.replaceAll(' ', '-')}.json`
    const filled = JSON.parse(JSON.stringify(body).replaceAll('"URL', `"${id}`))
    docs.set(id, { body: filled })
    const { cookie } = await signUp(base)
    const before = fetched.length
    for (let i = 0; i < 2; i++) {
      const res = await start(id, cookie, pkce().challenge)
      expect(res.status).toBe(400)
      expect(res.headers.get('location')).toBeNull()
    }
    expect(fetched.length - before).toBe(2)
  })

  it('refuses non-200, non-JSON and unsafe client_id URLs without fetching the last', async () => {
    const { cookie } = await signUp(base)
    const id = 'https://tool.example/status.json'
    docs.set(id, { status: 404, body: {} })
    expect((await start(id, cookie, pkce().challenge)).status).toBe(400)
    const html = 'https://tool.example/html.json'
    docs.set(html, {
      type: 'text/html',
      body: { client_id: html, client_name: 'X', redirect_uris: [REDIRECT] },
    })
    expect((await start(html, cookie, pkce().challenge)).status).toBe(400)
    const before = fetched.length
    for (const unsafe of [
      'https://tool.example/',
      'https://tool.example/a#frag',
      'https://tool.example/a?q=1',
      'https://user@tool.example/a',
      'https://tool.example/a/../b',
      'https://TOOL.example/a',
      'https://tool.example:443/a',
      'https://localhost/a',
    ])
      expect((await start(unsafe, cookie, pkce().challenge)).status, unsafe).toBe(400)
    expect(fetched.length).toBe(before)
  })

  it('caches a valid document within bounds, but not one sent with no-store', async () => {
    const { cookie } = await signUp(base)
    const cached = 'https://tool.example/cached.json'
    docs.set(cached, {
      body: { client_id: cached, client_name: 'C', redirect_uris: [REDIRECT] },
      cache: 'max-age=60',
    })
    const fresh = 'https://tool.example/fresh.json'
    docs.set(fresh, {
      body: { client_id: fresh, client_name: 'F', redirect_uris: [REDIRECT] },
      cache: 'no-store',
    })
    const count = (url: string) => fetched.filter((u) => u === url).length
    for (let i = 0; i < 2; i++) {
      expect((await start(cached, cookie, pkce().challenge)).status).toBe(200)
      expect((await start(fresh, cookie, pkce().challenge)).status).toBe(200)
    }
    expect(count(cached)).toBe(1)
    expect(count(fresh)).toBe(2)
  })
})

import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { OutboundRefused } from '@workgraph/core'
import { createOutboundFetcher } from '@workgraph/h3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The connectors' fetcher against a real loopback server: what it refuses, and what it does not follow.
describe('outbound fetcher', () => {
  let server: Server
  let base = ''
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/redirect') return res.writeHead(302, { location: '/secret' }).end()
      if (req.url === '/post-redirect') return res.writeHead(303, { location: '/x?after=post' }).end()
      if (req.url === '/keep-redirect') return res.writeHead(307, { location: '/x' }).end()
      if (req.url === '/loop') return res.writeHead(302, { location: '/loop' }).end()
      // Another origin: the same address by another name is another origin too.
      if (req.url === '/away')
        return res.writeHead(302, { location: base.replace('127.0.0.1', 'localhost') }).end()
      if (req.url === '/private') return res.writeHead(302, { location: 'http://10.0.0.1/x' }).end()
      if (req.url === '/big') return res.writeHead(200).end('x'.repeat(4096))
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: req.method }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  const loopback = { allowLoopback: true }
  const strict = { allowLoopback: false }

  it('reaches loopback only when the provider is allowed there', async () => {
    const fetcher = createOutboundFetcher()
    const ok = await fetcher.fetch({ url: `${base}/x`, method: 'POST', headers: {}, body: 'a=1' }, loopback)
    expect(ok).toMatchObject({ status: 200, body: '{"method":"POST"}' })
    await expect(
      fetcher.fetch({ url: `${base}/x`, method: 'GET', headers: {} }, strict),
    ).rejects.toBeInstanceOf(OutboundRefused)
    expect(await fetcher.refusal(`${base}/x`, strict)).toMatch(/special-use/)
    expect(await fetcher.refusal(`${base}/x`, loopback)).toBeNull()
  })

  it('follows no redirect and caps the answer size', async () => {
    const fetcher = createOutboundFetcher({ maxBytes: 1024 })
    const redirected = await fetcher.fetch({ url: `${base}/redirect`, method: 'GET', headers: {} }, loopback)
    expect(redirected.status).toBe(302)
    expect(redirected.body).toBe('')
    await expect(fetcher.fetch({ url: `${base}/big`, method: 'GET', headers: {} }, loopback)).rejects.toThrow(
      /too large/,
    )
  })

  it('follows same-origin redirects only when the policy allows them, checking every hop', async () => {
    const fetcher = createOutboundFetcher()
    const follow = { allowLoopback: true, sameOriginRedirects: true }
    const followed = await fetcher.fetch({ url: `${base}/redirect`, method: 'GET', headers: {} }, follow)
    expect(followed).toMatchObject({ status: 200, body: '{"method":"GET"}' })
    // 303 turns a POST into a GET without its body; 307 repeats it.
    const post = { method: 'POST' as const, headers: { 'content-type': 'text/plain' }, body: 'a=1' }
    expect(await fetcher.fetch({ url: `${base}/post-redirect`, ...post }, follow)).toMatchObject({
      status: 200,
      body: '{"method":"GET"}',
    })
    expect(await fetcher.fetch({ url: `${base}/keep-redirect`, ...post }, follow)).toMatchObject({
      status: 200,
      body: '{"method":"POST"}',
    })
    // Another origin (or a special-use address elsewhere) is answered as is, never fetched.
    for (const path of ['/away', '/private'])
      expect(
        (await fetcher.fetch({ url: `${base}${path}`, method: 'GET', headers: {} }, follow)).status,
      ).toBe(302)
    await expect(
      fetcher.fetch({ url: `${base}/loop`, method: 'GET', headers: {} }, follow),
    ).rejects.toBeInstanceOf(OutboundRefused)
    // Without the policy, nothing is followed.
    expect(
      (await fetcher.fetch({ url: `${base}/redirect`, method: 'GET', headers: {} }, loopback)).status,
    ).toBe(302)
  })

  it('refuses names resolving to special-use addresses, and plain http outside loopback', async () => {
    const answers: Record<string, string[]> = {
      'internal.example': ['10.1.2.3'],
      'mixed.example': ['93.184.215.14', '169.254.169.254'],
      'public.example': ['93.184.215.14'],
    }
    const fetcher = createOutboundFetcher({ resolve: async (host) => answers[host] ?? [] })
    expect(await fetcher.refusal('https://internal.example/x', loopback)).toMatch(/10\.1\.2\.3/)
    expect(await fetcher.refusal('https://mixed.example/x', strict)).toMatch(/169\.254\.169\.254/)
    expect(await fetcher.refusal('http://public.example/x', strict)).toMatch(/only https/)
    expect(await fetcher.refusal('https://public.example/x', strict)).toBeNull()
    expect(await fetcher.refusal('https://[::ffff:7f00:1]/x', strict)).toMatch(/special-use/)
    expect(await fetcher.refusal('https://user:pw@public.example/x', strict)).toMatch(/credentials/)
  })
})

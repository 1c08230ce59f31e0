import { isApiOperation, SSE_ENDPOINT } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'

describeEachDatabase('service endpoints', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('answers /v1/config without a token, with issuer, auth endpoints and limits', async () => {
    const res = await server.request('GET', '/v1/config')
    expect(res.status).toBe(200)
    expect(res.body.issuer).toBe(server.url)
    expect(res.body.apiBaseUrl).toBe(`${server.url}/v1`)
    expect(res.body.limits).toMatchObject({ pageSizeDefault: 50, pageSizeMax: 200 })
    expect(Object.keys(res.body.auth.scopes)).toEqual([
      'work:read',
      'work:write',
      'agents:run',
      'connectors:link',
      'offline_access',
    ])
  })

  it('publishes a JWKS that verifies the tokens it issues', async () => {
    const res = await server.request('GET', '/.well-known/jwks.json')
    expect(res.status).toBe(200)
    expect(res.body.keys).toHaveLength(1)
    expect(res.body.keys[0]).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' })
    expect(res.body.keys[0].d).toBeUndefined()
  })

  it('serves an OpenAPI 3.1 document with every operation and the problem catalogue', async () => {
    const res = await server.request('GET', '/v1/openapi.json')
    expect(res.status).toBe(200)
    expect(res.body.openapi).toBe('3.1.0')
    const ids = Object.values(res.body.paths).flatMap((item: any) =>
      Object.values(item).map((op: any) => op.operationId),
    )
    // Every catalogue operation under /v1 (not the connector callback, a browser's landing), plus
    // the SSE stream (described in core, served by the adapter).
    const expected = [...server.engine.operations.filter(isApiOperation).map((op) => op.id), SSE_ENDPOINT.id]
    expect(ids).toEqual(expected.sort((a, b) => ids.indexOf(a) - ids.indexOf(b)))
    expect(new Set(ids).size).toBe(expected.length)
    // The problem is a union discriminated by `code`; a code with members of its own has its variant.
    const problem = res.body.components.schemas.Problem
    expect(Object.keys(problem['x-problem-codes'])).toContain('capability_required')
    expect(problem.discriminator.mapping.capability_required).toBe(
      '#/components/schemas/ProblemCapabilityRequired',
    )
    expect(res.body.components.schemas.ProblemCapabilityRequired.properties.capability.enum).toContain(
      'manage',
    )
  })

  it('serves the interactive reference and its script from this server only', async () => {
    const page = await fetch(`${server.url}/v1/docs`)
    expect(page.status).toBe(200)
    const html = await page.text()
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'")
    expect(page.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const external = [...html.matchAll(/(?:src|href)="([^"]+)"/g)]
      .map((m) => m[1]!)
      .filter((u) => !u.startsWith('/') && !u.startsWith('data:'))
    expect(external).toEqual([])
    const script = await fetch(`${server.url}/v1/docs/scalar.js`)
    expect(script.status).toBe(200)
    expect(script.headers.get('content-type')).toContain('javascript')
  })

  it('answers unknown paths with a 404 problem document', async () => {
    const res = await server.request('GET', '/v1/nothing-here')
    expect(res.status).toBe(404)
    expect(res.headers.get('content-type')).toContain('application/problem+json')
    expect(res.body.code).toBe('not_found')
  })
})

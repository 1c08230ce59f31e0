import { generateKeyPair, SignJWT } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { freshCode, redeem, register, tokenRequest } from './support.ts'

describeEachDatabase('OAuth token endpoint and resource server', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let base: string
  let offsetMs = 0
  beforeAll(async () => {
    // The OAuth clock can be moved forward to leave the refresh grace window without waiting.
    server = await startTestServer(db, {
      oauth: { clock: () => new Date(Date.now() + offsetMs), registrationsPerMinute: 1000 },
    })
    base = server.url
  })
  afterAll(() => server.drop())
  const api = (token: string) => server.request('GET', '/v1/orgs', { token })

  describe('authorization_code', () => {
    it('issues resource-bound tokens with no-store, and refuses a JSON body or unknown grant types', async () => {
      const c = await freshCode(base)
      const json = await fetch(`${base}/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'authorization_code', code: c.code }),
      })
      expect(json.status).toBe(400)
      expect(((await json.json()) as any).error).toBe('invalid_request')
      const res = await redeem(base, c)
      expect(res.status).toBe(200)
      expect(res.headers.get('cache-control')).toBe('no-store')
      const [header, payload] = res.body.access_token
        .split('.')
        .slice(0, 2)
        .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()))
      expect(header).toMatchObject({ alg: 'ES256', typ: 'at+jwt' })
      expect(payload).toMatchObject({ aud: `${base}/v1`, iss: base, client_id: c.client.client_id })
      expect(payload.gid).toMatch(/^cns_/)
      expect(payload.nbf).toBeLessThanOrEqual(payload.iat)
      expect(payload.exp - payload.iat).toBe(900)
      expect((await api(res.body.access_token)).status).toBe(200)
      for (const grant of ['password', 'client_credentials', 'implicit'])
        expect(
          (await tokenRequest(base, { grant_type: grant, client_id: c.client.client_id })).body.error,
        ).toBe('unsupported_grant_type')
    })

    it('refuses a wrong, missing or malformed verifier', async () => {
      const c = await freshCode(base)
      expect((await redeem(base, c, { code_verifier: 'x'.repeat(43) })).body.error).toBe('invalid_grant')
      const d = await freshCode(base)
      const missing = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: d.code,
        client_id: d.client.client_id,
      })
      expect(missing.body.error).toBe('invalid_request')
      expect((await redeem(base, d, { code_verifier: 'short' })).body.error).toBe('invalid_grant')
    })

    it('refuses another client redeeming the code, and an unknown resource', async () => {
      const c = await freshCode(base)
      const other = (await register(base)).body
      expect((await redeem(base, c, { client_id: other.client_id })).body.error).toBe('invalid_grant')
      const d = await freshCode(base, { resource: `${base}/mcp` })
      const wrong = await redeem(base, d, { resource: 'https://elsewhere.example/v1' })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error).toBe('invalid_target')
      const mismatch = await redeem(base, await freshCode(base, { resource: `${base}/mcp` }), {
        resource: `${base}/v1`,
      })
      expect(mismatch.body.error).toBe('invalid_target')
    })

    it('a replayed code fails and revokes the tokens issued from it', async () => {
      const c = await freshCode(base)
      const first = await redeem(base, c)
      expect(first.status).toBe(200)
      const second = await redeem(base, c)
      expect(second.status).toBe(400)
      expect(second.body.error).toBe('invalid_grant')
      expect((await api(first.body.access_token)).status).toBe(401)
      const refresh = await tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: first.body.refresh_token,
        client_id: c.client.client_id,
      })
      expect(refresh.body.error).toBe('invalid_grant')
    })

    it('concurrent redemptions: exactly one succeeds', async () => {
      const c = await freshCode(base)
      const results = await Promise.all(Array.from({ length: 5 }, () => redeem(base, c)))
      expect(results.filter((r) => r.status === 200)).toHaveLength(1)
      expect(results.filter((r) => r.body.error === 'invalid_grant')).toHaveLength(4)
    })

    it('authenticates confidential clients and refuses a wrong secret with a Basic challenge', async () => {
      const confidential = (await register(base, { token_endpoint_auth_method: 'client_secret_basic' })).body
      const basic = (id: string, secret: string) =>
        `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`
      const wrong = await tokenRequest(
        base,
        { grant_type: 'authorization_code', code: 'x' },
        { authorization: basic(confidential.client_id, 'nope') },
      )
      expect(wrong.status).toBe(401)
      expect(wrong.body.error).toBe('invalid_client')
      expect(wrong.headers.get('www-authenticate')).toContain('Basic')
      const noSecret = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: confidential.client_id,
      })
      expect(noSecret.body.error).toBe('invalid_client')
      const right = await tokenRequest(
        base,
        { grant_type: 'authorization_code', code: 'x', code_verifier: 'v'.repeat(43) },
        { authorization: basic(confidential.client_id, confidential.client_secret) },
      )
      expect(right.body.error).toBe('invalid_grant')
      const publicWithSecret = (await register(base)).body
      const sent = await tokenRequest(base, {
        grant_type: 'authorization_code',
        code: 'x',
        client_id: publicWithSecret.client_id,
        client_secret: 'anything',
      })
      expect(sent.body.error).toBe('invalid_client')
    })
  })

  describe('refresh_token', () => {
    const refresh = (c: { client: Record<string, any> }, token: string, extra: Record<string, string> = {}) =>
      tokenRequest(base, {
        grant_type: 'refresh_token',
        refresh_token: token,
        client_id: c.client.client_id,
        ...extra,
      })

    it('rotates; a reuse inside the grace window replays the identical answer, after it revokes the grant', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      const second = await refresh(c, first.refresh_token)
      expect(second.status).toBe(200)
      expect(second.body.refresh_token).not.toBe(first.refresh_token)
      const retry = await refresh(c, first.refresh_token)
      expect(retry.body).toEqual(second.body)

      offsetMs += 31_000
      const late = await refresh(c, first.refresh_token)
      expect(late.body.error).toBe('invalid_grant')
      // The newest tokens of the grant are dead too.
      expect((await api(second.body.access_token)).status).toBe(401)
      expect((await refresh(c, second.body.refresh_token)).body.error).toBe('invalid_grant')
    })

    it('concurrent refreshes with one token all get the same answer', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      const answers = await Promise.all(Array.from({ length: 4 }, () => refresh(c, first.refresh_token)))
      expect(answers.every((a) => a.status === 200)).toBe(true)
      expect(new Set(answers.map((a) => a.body.refresh_token)).size).toBe(1)
    })

    it('may narrow the scope, never widen it; another client cannot use it; no offline_access, no refresh token', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      const other = (await register(base)).body
      expect((await refresh({ client: other }, first.refresh_token)).body.error).toBe('invalid_grant')
      expect((await refresh(c, first.refresh_token, { scope: 'work:read agents:run' })).body.error).toBe(
        'invalid_scope',
      )
      const narrow = await refresh(c, first.refresh_token, { scope: 'work:read' })
      expect(narrow.body.scope).toBe('work:read')
      const wide = await refresh(c, narrow.body.refresh_token)
      expect(wide.body.scope).toBe('work:read work:write offline_access')
      const noOffline = (await redeem(base, await freshCode(base, { scope: 'work:read' }))).body
      expect(noOffline.refresh_token).toBeUndefined()
    })

    it('revocation (RFC 7009) ends the refresh tokens of the grant', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      const res = await fetch(`${base}/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ token: first.refresh_token, client_id: c.client.client_id }),
      })
      expect(res.status).toBe(200)
      expect((await refresh(c, first.refresh_token)).body.error).toBe('invalid_grant')
    })

    it('revoking an access token fails its next call at once; its consent and refresh token live on', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      expect((await api(first.access_token)).status).toBe(200)
      const revoke = (token: string, clientId: string) =>
        fetch(`${base}/oauth/revoke`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ token, client_id: clientId, token_type_hint: 'access_token' }),
        })
      // Another client's revocation is answered the same way and changes nothing.
      const other = (await register(base)).body
      expect((await revoke(first.access_token, other.client_id)).status).toBe(200)
      expect((await api(first.access_token)).status).toBe(200)

      expect((await revoke(first.access_token, c.client.client_id)).status).toBe(200)
      const denied = await api(first.access_token)
      expect(denied.status).toBe(401)
      expect(denied.headers.get('www-authenticate')).toContain('invalid_token')
      const next = await refresh(c, first.refresh_token)
      expect(next.status).toBe(200)
      expect((await api(next.body.access_token)).status).toBe(200)
      // Revoking twice, or a token that is not a JWT, is still a plain 200.
      expect((await revoke(first.access_token, c.client.client_id)).status).toBe(200)
      expect((await revoke('not.a.token', c.client.client_id)).status).toBe(200)
    })

    it('a denied access token is forgotten once it would have expired', async () => {
      const c = await freshCode(base)
      const first = (await redeem(base, c)).body
      const payload = JSON.parse(Buffer.from(first.access_token.split('.')[1], 'base64url').toString())
      await server.engine.storage.transaction((tx) =>
        tx.oauth.revokeAccessToken(payload.jti, new Date(payload.exp * 1000).toISOString()),
      )
      expect((await api(first.access_token)).status).toBe(401)
      const denied = () => server.engine.storage.read((s) => s.oauth.accessTokenIsLive(payload.jti, null))
      const at = (ms: number) => new Date(payload.exp * 1000 + ms).toISOString()
      await server.engine.storage.transaction((tx) => tx.oauth.prune(at(-1000)))
      expect(await denied()).toBe(false)
      await server.engine.storage.transaction((tx) => tx.oauth.prune(at(1000)))
      expect(await denied()).toBe(true)
    })
  })

  describe('the resource server', () => {
    it('refuses forged, mis-addressed and expired JWTs', async () => {
      const c = await freshCode(base)
      const good = (await redeem(base, c)).body.access_token as string
      const [h, p] = good.split('.') as [string, string]
      const payload = JSON.parse(Buffer.from(p, 'base64url').toString())
      const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
      const { privateKey } = await generateKeyPair('ES256')
      const header = JSON.parse(Buffer.from(h, 'base64url').toString())
      const sign = (claims: Record<string, unknown>, hdr: Record<string, unknown> = header) =>
        new SignJWT({ ...payload, ...claims }).setProtectedHeader(hdr as never).sign(privateKey)
      const now = Math.floor(Date.now() / 1000)
      const forged = [
        `${enc({ alg: 'none', typ: 'at+jwt' })}.${p}.`,
        await sign({}),
        `${h}.${enc({ ...payload, aud: 'https://elsewhere.example' })}.${good.split('.')[2]}`,
      ]
      for (const token of forged) expect((await api(token)).status).toBe(401)
      const issue = (o: Record<string, unknown>) =>
        server.engine.tokens.issueAccessToken({ userId: payload.sub, scopes: ['work:read'], ...o })
      expect((await api(await issue({ audience: 'https://elsewhere.example' }))).status).toBe(401)
      expect((await api(await issue({ ttlSeconds: -1 }))).status).toBe(401)
      // Wrong typ and wrong iss, signed with the real key, are refused too.
      const keys = await server.storage.read((s) => s.secrets.list('signing-key:'))
      const real = JSON.parse(keys[0]!.value)
      const { importJWK } = await import('jose')
      const key = await importJWK(real.privateJwk, 'ES256')
      const signReal = (claims: Record<string, unknown>, typ = 'at+jwt') =>
        new SignJWT({ ...payload, ...claims })
          .setProtectedHeader({ alg: 'ES256', kid: real.kid, typ })
          .sign(key)
      expect((await api(await signReal({}))).status).toBe(200)
      expect((await api(await signReal({}, 'JWT'))).status).toBe(401)
      expect((await api(await signReal({ iss: 'https://evil.example' }))).status).toBe(401)
      expect((await api(await signReal({ nbf: now + 600 }))).status).toBe(401)
      expect((await api(await signReal({ exp: now - 1 }))).status).toBe(401)
    })

    it('refuses a token in the query string', async () => {
      const c = await freshCode(base)
      const token = (await redeem(base, c)).body.access_token
      const res = await server.request('GET', `/v1/orgs?access_token=${token}`)
      expect(res.status).toBe(401)
      expect(res.headers.get('www-authenticate')).toContain('resource_metadata=')
    })

    it('answers a write with a read token with insufficient_scope and resource_metadata', async () => {
      const c = await freshCode(base, { scope: 'work:read' })
      const token = (await redeem(base, c)).body.access_token
      const res = await server.request('POST', '/v1/orgs', { token, body: { name: 'Nope' } })
      expect(res.status).toBe(403)
      expect(res.headers.get('www-authenticate')).toBe(
        `Bearer realm="workgraph", error="insufficient_scope", scope="work:write", resource_metadata="${base}/.well-known/oauth-protected-resource/v1"`,
      )
    })

    it('keeps live tokens valid across a signing-key rotation', async () => {
      const c = await freshCode(base)
      const before = (await redeem(base, c)).body
      const kid = await server.engine.tokens.rotateSigningKey()
      const after = (
        await tokenRequest(base, {
          grant_type: 'refresh_token',
          refresh_token: before.refresh_token,
          client_id: c.client.client_id,
        })
      ).body
      const header = JSON.parse(Buffer.from(after.access_token.split('.')[0], 'base64url').toString())
      expect(header.kid).toBe(kid)
      expect((await api(before.access_token)).status).toBe(200)
      expect((await api(after.access_token)).status).toBe(200)
      const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as any
      expect(jwks.keys.map((k: any) => k.kid)).toContain(kid)
      expect(jwks.keys.every((k: any) => k.d === undefined)).toBe(true)
    })
  })
})

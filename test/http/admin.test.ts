import type { DnsTxtResolver } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** A DNS stand-in: TXT records by name, and names whose lookup fails as a broken resolver would. */
function fakeDns() {
  const records = new Map<string, string[][]>()
  const failing = new Set<string>()
  const resolver: DnsTxtResolver = {
    async resolveTxt(name) {
      if (failing.has(name)) throw Object.assign(new Error('server failure'), { code: 'ESERVFAIL' })
      const found = records.get(name)
      if (!found) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
      return found
    },
  }
  return { resolver, records, failing }
}

async function walk(api: TestWorkspace['api'], path: string, limit: number): Promise<any[]> {
  const items: any[] = []
  let cursor: string | null = null
  const sep = path.includes('?') ? '&' : '?'
  do {
    const res: any = await api.get(`${path}${sep}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    items.push(...res.body.data)
    cursor = res.body.nextCursor
  } while (cursor)
  return items
}

describeEachDatabase('administration: settings, domains, audit log', (db) => {
  const dns = fakeDns()
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { dns: dns.resolver } })
  })
  afterAll(() => server.drop())

  it('reads default settings, lets only admins change them, checks the default team and If-Match', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    const defaults = await member.api.get(`${base}/settings`)
    expect(defaults.status).toBe(200)
    expect(defaults.body).toEqual({
      orgId: ws.orgId,
      defaultTeamId: null,
      invitationPolicy: 'anyone',
      updatedAt: null,
    })
    const refused = await member.api.patch(`${base}/settings`, { defaultTeamId: ws.teamId })
    expect(refused).toMatchObject({ status: 403, body: { code: 'capability_required' } })

    const etag = (await ws.api.get(`${base}/settings`)).headers.get('etag')!
    const updated = await ws.api.patch(`${base}/settings`, { defaultTeamId: ws.teamId }, { 'if-match': etag })
    expect(updated.status).toBe(200)
    expect(updated.body).toMatchObject({ defaultTeamId: ws.teamId, invitationPolicy: 'anyone' })
    expect(updated.body.updatedAt).not.toBeNull()
    const stale = await ws.api.patch(`${base}/settings`, { defaultTeamId: null }, { 'if-match': etag })
    expect(stale).toMatchObject({ status: 412, body: { code: 'precondition_failed' } })
    expect((await member.api.get(`${base}/settings`)).body.defaultTeamId).toBe(ws.teamId)

    const otherTeam = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
    await ws.api.post(`${base}/teams/${otherTeam.id}/archive`)
    const archived = await ws.api.patch(`${base}/settings`, { defaultTeamId: otherTeam.id })
    expect(archived).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    const missing = await ws.api.patch(`${base}/settings`, {
      defaultTeamId: 'team_01JD3Q2R4S5T6V7W8X9YZABCDE',
    })
    expect(missing).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    const wrongBrand = await ws.api.patch(`${base}/settings`, { defaultTeamId: ws.orgId })
    expect(wrongBrand).toMatchObject({ status: 400, body: { code: 'invalid_identifier' } })
    expect((await ws.api.patch(`${base}/settings`, {})).status).toBe(400)
    const noDomain = await ws.api.patch(`${base}/settings`, { invitationPolicy: 'verified_domains' })
    expect(noDomain).toMatchObject({ status: 409, body: { code: 'conflict' } })

    const cleared = await ws.api.patch(`${base}/settings`, { defaultTeamId: null })
    expect(cleared.body.defaultTeamId).toBeNull()
    // Nothing changed: no new event.
    const again = await ws.api.patch(`${base}/settings`, { defaultTeamId: null })
    expect(again.body).toEqual(cleared.body)
    const audit = await ws.api.get(`${base}/audit-log?category=settings`)
    expect(audit.body.data.map((e: any) => e.data.changes.defaultTeamId.after)).toEqual([null, ws.teamId])
  })

  it('adds domains with a TXT record, verifies them through DNS, limits invitations, and deletes them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const created = await ws.api.post(`${base}/domains`, { domain: 'Acme-Corp.example' })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.headers.get('location')).toBe(`${base}/domains/${created.body.id}`)
    const domain = created.body
    expect(domain).toMatchObject({
      id: expect.stringMatching(/^dom_/),
      domain: 'acme-corp.example',
      status: 'pending',
      txtRecord: {
        name: '_workgraph-verification.acme-corp.example',
        type: 'TXT',
        value: expect.stringMatching(/^workgraph-verification=[\w-]{32}$/),
      },
      verifiedAt: null,
      lastCheckedAt: null,
    })
    const dup = await ws.api.post(`${base}/domains`, { domain: 'acme-corp.example' })
    expect(dup).toMatchObject({ status: 409, body: { code: 'already_exists' } })
    for (const bad of ['localhost', 'http://x.example', 'a..example', 'x.example.']) {
      const res = await ws.api.post(`${base}/domains`, { domain: bad })
      expect(res.status, bad).toBe(400)
    }
    // Another workspace's TXT value differs for the same domain.
    const other = await newWorkspace(server)
    const theirs = await other.api.post(`/v1/orgs/${other.orgId}/domains`, { domain: 'acme-corp.example' })
    expect(theirs.body.txtRecord.value).not.toBe(domain.txtRecord.value)
    expect((await other.api.get(`/v1/orgs/${other.orgId}/domains/${domain.id}`)).status).toBe(404)

    const member = await ws.addMember('member')
    expect((await member.api.get(`${base}/domains`)).status).toBe(403)
    expect((await member.api.get(`${base}/domains/${domain.id}`)).status).toBe(403)
    expect((await member.api.post(`${base}/domains/${domain.id}/verify`)).status).toBe(403)

    // Not published yet, then a lookup failure, then another value: each stays pending with a reason.
    const item = `${base}/domains/${domain.id}`
    const missing = await ws.api.post(`${item}/verify`)
    expect(missing.status).toBe(200)
    expect(missing.body).toMatchObject({
      status: 'pending',
      lastCheckError: expect.stringContaining('No TXT record'),
    })
    expect(missing.body.lastCheckedAt).not.toBeNull()
    dns.failing.add(domain.txtRecord.name)
    const broken = await ws.api.post(`${item}/verify`)
    expect(broken.body.lastCheckError).toContain('ESERVFAIL')
    dns.failing.delete(domain.txtRecord.name)
    dns.records.set(domain.txtRecord.name, [['v=spf1 -all'], ['workgraph-verification=someone-else']])
    const wrong = await ws.api.post(`${item}/verify`)
    expect(wrong.body).toMatchObject({
      status: 'pending',
      lastCheckError: expect.stringContaining('do not include'),
    })

    // Published, split into two strings as long TXT values may be.
    const value = domain.txtRecord.value as string
    dns.records.set(domain.txtRecord.name, [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]])
    const verified = await ws.api.post(`${item}/verify`)
    expect(verified.body).toMatchObject({ status: 'verified', lastCheckError: null })
    expect(verified.body.verifiedAt).not.toBeNull()
    expect((await ws.api.get(item)).body).toEqual(verified.body)
    // Verified for good: the record can go.
    dns.records.delete(domain.txtRecord.name)
    expect((await ws.api.post(`${item}/verify`)).body).toEqual(verified.body)

    for (const name of ['b.example', 'c.example']) await ws.api.post(`${base}/domains`, { domain: name })
    for (const limit of [1, 2, 5]) {
      const all = await walk(ws.api, `${base}/domains`, limit)
      expect(all.map((d) => d.domain)).toEqual(['acme-corp.example', 'b.example', 'c.example'])
    }
    const onlyVerified = await ws.api.get(`${base}/domains?status=verified`)
    expect(onlyVerified.body.data.map((d: any) => d.id)).toEqual([domain.id])

    // Invitations only to verified domains.
    const policy = await ws.api.patch(`${base}/settings`, { invitationPolicy: 'verified_domains' })
    expect(policy.body.invitationPolicy).toBe('verified_domains')
    const outside = await ws.api.post(`${base}/invitations`, { email: 'someone@b.example', role: 'member' })
    expect(outside).toMatchObject({ status: 422, body: { code: 'domain_not_allowed' } })
    const inside = await ws.api.post(`${base}/invitations`, {
      email: 'Someone@ACME-corp.example',
      role: 'member',
    })
    expect(inside.status).toBe(201)
    const last = await ws.api.delete(item)
    expect(last).toMatchObject({ status: 409, body: { code: 'conflict' } })
    await ws.api.patch(`${base}/settings`, { invitationPolicy: 'anyone' })
    expect((await ws.api.post(`${base}/invitations`, { email: 'x@b.example', role: 'member' })).status).toBe(
      201,
    )
    expect((await ws.api.delete(item)).status).toBe(204)
    expect((await ws.api.get(item)).status).toBe(404)
    expect((await ws.api.post(`${item}/verify`)).status).toBe(404)
  })

  it('lists administrative changes newest first, filtered and paged, for admins only', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const member = await ws.addMember('member')
    const start = new Date().toISOString()
    await ws.api.patch(`${base}/members/${member.memberId}`, { role: 'admin' })
    const grant = await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: member.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'manage',
    })
    expect(grant.status).toBe(201)
    await ws.api.post(`${base}/invitations`, { email: 'new@example.com', role: 'member' })
    await ws.api.patch(`${base}/settings`, { defaultTeamId: ws.teamId })
    const domain = (await ws.api.post(`${base}/domains`, { domain: 'audit.example' })).body
    // Work changes are not administrative.
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Not audited' })

    const all = await walk(ws.api, `${base}/audit-log`, 50)
    const kinds = all.map((e) => e.kind)
    expect(kinds.slice(0, 5)).toEqual([
      'domain.created',
      'org_settings.updated',
      'invitation.created',
      'grant.created',
      'member.updated',
    ])
    expect(kinds).toContain('org.created')
    expect(kinds).not.toContain('task.created')
    expect(kinds).not.toContain('team.created')
    const roleChange = all.find((e) => e.kind === 'member.updated')
    expect(roleChange).toMatchObject({
      category: 'members',
      actorId: expect.stringMatching(/^mem_/),
      resourceType: 'member',
      resourceId: member.memberId,
      data: { changes: { role: { before: 'member', after: 'admin' } } },
    })
    const seqs = all.map((e) => e.seq)
    expect([...seqs].sort((a, b) => b - a)).toEqual(seqs)
    for (const limit of [1, 2, 3]) expect(await walk(ws.api, `${base}/audit-log`, limit)).toEqual(all)

    const grants = await ws.api.get(`${base}/audit-log?category=grants`)
    expect(grants.body.data.map((e: any) => e.kind)).toEqual(['grant.created'])
    const byKind = await ws.api.get(`${base}/audit-log?kind=domain.created`)
    expect(byKind.body.data.map((e: any) => e.resourceId)).toEqual([domain.id])
    const byResource = await ws.api.get(`${base}/audit-log?resourceId=${member.memberId}`)
    expect(byResource.body.data.map((e: any) => e.kind)).toEqual(['member.updated'])
    const byActor = await ws.api.get(`${base}/audit-log?actorId=${member.memberId}`)
    expect(byActor.body.data).toEqual([])
    const mismatch = await ws.api.get(`${base}/audit-log?category=grants&kind=domain.created`)
    expect(mismatch.body.data).toEqual([])
    const since = await walk(ws.api, `${base}/audit-log?since=${encodeURIComponent(start)}`, 2)
    expect(since.map((e) => e.kind)).toEqual(kinds.slice(0, 5))
    const until = await ws.api.get(`${base}/audit-log?until=${encodeURIComponent(start)}`)
    expect(until.body.data.map((e: any) => e.kind)).not.toContain('member.updated')

    const badKind = await ws.api.get(`${base}/audit-log?kind=task.created`)
    expect(badKind).toMatchObject({ status: 400, body: { code: 'validation_failed' } })
    const badRange = await ws.api.get(
      `${base}/audit-log?since=${encodeURIComponent(start)}&until=${encodeURIComponent(start)}`,
    )
    expect(badRange).toMatchObject({ status: 422, body: { code: 'rule_violated' } })
    const badCategory = await ws.api.get(`${base}/audit-log?category=tasks`)
    expect(badCategory.status).toBe(400)
    const otherList = await ws.api.get(`${base}/audit-log?category=grants&limit=1`)
    const foreign = await ws.api.get(
      `${base}/audit-log?category=domains&cursor=${otherList.body.nextCursor ?? 'x'}`,
    )
    expect(foreign).toMatchObject({ status: 400, body: { code: 'invalid_cursor' } })

    const plain = await ws.addMember('member')
    expect((await plain.api.get(`${base}/audit-log`)).status).toBe(403)
    // The promoted admin reads it too.
    expect((await member.api.get(`${base}/audit-log?limit=1`)).status).toBe(200)
  })
})

import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { mailsTo } from '../support/outbox.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('invitations.resend and access.holders', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!

  it('resends with a fresh token: the old link stops working, the new one joins', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const invitee = await newPerson(server.engine)
    const email = invitee.user.email
    const invitation = (await ws.api.post(`${base}/invitations`, { email, role: 'member' })).body
    const oldToken = tokenOf(mailsTo(email).at(-1)!.link)
    // An expired invitation can be resent too: it gets a fresh window.
    await server.storage.db
      .updateTable('invitations')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', invitation.id)
      .execute()
    const resent = await ws.api.post(`${base}/invitations/${invitation.id}/resend`)
    expect(resent.status).toBe(200)
    expect(resent.body).toMatchObject({ id: invitation.id, state: 'pending' })
    expect(Date.parse(resent.body.expiresAt)).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    const mails = mailsTo(email)
    expect(mails).toHaveLength(2)
    const newToken = tokenOf(mails[1]!.link)
    expect(newToken).not.toBe(oldToken)
    const me = server.as(invitee.token)
    expect((await me.post('/v1/invitations/accept', { token: oldToken })).body.code).toBe(
      'invitation_invalid',
    )
    expect((await me.post('/v1/invitations/accept', { token: newToken })).status).toBe(200)
    const events = await server.storage.read((s) => s.events.list(ws.orgId, 0, 1000))
    expect(events.filter((e) => e.kind === 'invitation.resent')).toHaveLength(1)
    // Accepted: nothing to resend.
    const late = await ws.api.post(`${base}/invitations/${invitation.id}/resend`)
    expect(late.body).toMatchObject({ status: 409, code: 'conflict', state: 'accepted' })
    expect(mailsTo(email)).toHaveLength(2)
  })

  it('needs manage; a revoked invitation is a 409; another org sees a 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const email = `resend.${Date.now()}@example.com`
    const invitation = (await ws.api.post(`${base}/invitations`, { email, role: 'member' })).body
    const member = await ws.addMember('member')
    const denied = await member.api.post(`${base}/invitations/${invitation.id}/resend`)
    expect(denied.body).toMatchObject({ status: 403, code: 'capability_required' })
    const elsewhere = await newWorkspace(server)
    expect(
      (await elsewhere.api.post(`/v1/orgs/${elsewhere.orgId}/invitations/${invitation.id}/resend`)).status,
    ).toBe(404)
    await ws.api.post(`${base}/invitations/${invitation.id}/revoke`)
    expect((await ws.api.post(`${base}/invitations/${invitation.id}/resend`)).body.state).toBe('revoked')
    expect(mailsTo(email)).toHaveLength(1)
  })

  it('lists who holds a capability on a task and through what: role, direct grant, team grant', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const ownerId = (await ws.api.get(`${base}/members?limit=1`)).body.data[0].id
    const member = await ws.addMember('member')
    const guest = await ws.addMember('guest')
    const teamGuest = await ws.addMember('guest')
    await ws.addMember('guest') // holds nothing: left out
    const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Audit' })).body
    const grant = (
      await ws.api.post(`${base}/grants`, {
        subjectType: 'member',
        subjectId: guest.memberId,
        containerType: 'team',
        containerId: ws.teamId,
        capability: 'comment',
      })
    ).body
    const other = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body
    await ws.api.put(`${base}/teams/${other.id}/members/${teamGuest.memberId}`)
    await ws.api.put(`${base}/teams/${other.id}/members/${agent.id}`)
    const teamGrant = (
      await ws.api.post(`${base}/grants`, {
        subjectType: 'team',
        subjectId: other.id,
        containerType: 'team',
        containerId: ws.teamId,
        capability: 'contribute',
      })
    ).body
    const path = `${base}/access/holders?targetType=task&targetId=${task.id}`
    const all = await ws.api.get(`${path}&limit=100`)
    expect(all.status).toBe(200)
    const byId = Object.fromEntries(all.body.data.map((h: any) => [h.actorId, h]))
    expect(Object.keys(byId).sort()).toEqual(
      [ownerId, member.memberId, guest.memberId, teamGuest.memberId, agent.id].sort(),
    )
    expect(byId[ownerId]).toMatchObject({ capability: 'manage', role: { role: 'owner' }, grants: [] })
    expect(byId[member.memberId]).toMatchObject({ capability: 'assign', role: { role: 'member' } })
    expect(byId[guest.memberId]).toMatchObject({ capability: 'comment', grants: [{ id: grant.id }] })
    expect(byId[teamGuest.memberId]).toMatchObject({
      capability: 'contribute',
      grants: [{ id: teamGrant.id }],
    })
    expect(byId[agent.id]).toMatchObject({ kind: 'agent', role: null, capability: 'contribute' })
    // At least contribute: the role of a member, the team's grant; not the commenter.
    const contributors = await ws.api.get(`${path}&capability=contribute&limit=100`)
    expect(contributors.body.data.map((h: any) => h.actorId).sort()).toEqual(
      [ownerId, member.memberId, teamGuest.memberId, agent.id].sort(),
    )
    // Paged by actor id, exactly.
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const page: any = await ws.api.get(`${path}&limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      expect(page.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...page.body.data.map((h: any) => h.actorId))
      cursor = page.body.nextCursor
    } while (cursor)
    expect(seen).toEqual(all.body.data.map((h: any) => h.actorId))
    expect([...seen].sort()).toEqual(seen)
  })

  it('answers only managers of the record: a viewer gets 403, someone who cannot view it 404', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Secret' })).body
    const guest = await ws.addMember('guest')
    const path = `${base}/access/holders?targetType=task&targetId=${task.id}`
    expect((await guest.api.get(path)).status).toBe(404)
    const outsider = await newPerson(server.engine)
    expect((await server.as(outsider.token).get(path)).status).toBe(404)
    const missing = await ws.api.get(
      `${base}/access/holders?targetType=task&targetId=task_01JD3Q2R4S5T6V7W8X9YZABCDE`,
    )
    expect(missing.status).toBe(404)
    // A member views and assigns the team's tasks but does not manage them, so the grants stay hidden.
    const member = await ws.addMember('member')
    expect((await member.api.get(path)).body).toMatchObject({
      status: 403,
      code: 'capability_required',
      capability: 'manage',
    })
    const admin = await ws.addMember('admin')
    expect((await admin.api.get(path)).status).toBe(200)
  })
})

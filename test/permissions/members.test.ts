import type { Mailer } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('members, invitations and grants', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  const mail: Array<{ to: string; link: string }> = []
  const mailer: Mailer = { send: async (m) => void mail.push(m) }
  beforeAll(async () => {
    server = await startTestServer(db, { mailer })
  })
  afterAll(() => server.drop())

  const tokenFor = (email: string) =>
    new URL(mail.filter((m) => m.to === email).at(-1)!.link).searchParams.get('token')!

  it('invites by email; the invitee accepts once with the link token and joins with the role', async () => {
    const ws = await newWorkspace(server)
    const invitee = await newPerson(server.engine)
    const email = invitee.user.email
    const created = await ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, {
      email: email.toUpperCase(),
      role: 'member',
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ email, role: 'member', state: 'pending' })
    expect(JSON.stringify(created.body)).not.toContain(tokenFor(email))
    const stranger = await newPerson(server.engine)
    const wrong = await server.as(stranger.token).post('/v1/invitations/accept', { token: tokenFor(email) })
    expect(wrong.status).toBe(403)
    expect(wrong.body.code).toBe('invitation_email_mismatch')
    const accepted = await server.as(invitee.token).post('/v1/invitations/accept', { token: tokenFor(email) })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toMatchObject({ role: 'member', status: 'active', userId: invitee.user.id })
    const again = await server.as(invitee.token).post('/v1/invitations/accept', { token: tokenFor(email) })
    expect(again.status).toBe(410)
    expect((await server.as(invitee.token).get(`/v1/orgs/${ws.orgId}/tasks`)).status).toBe(200)
    const listed = await ws.api.get(`/v1/orgs/${ws.orgId}/invitations?state=all`)
    expect(listed.body.data[0]).toMatchObject({ state: 'accepted', acceptedBy: accepted.body.id })
  })

  it('lets exactly one of two concurrent acceptances win', async () => {
    const ws = await newWorkspace(server)
    const invitee = await newPerson(server.engine)
    await ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email: invitee.user.email, role: 'guest' })
    const token = tokenFor(invitee.user.email)
    const results = await Promise.all(
      [1, 2, 3].map(() => server.as(invitee.token).post('/v1/invitations/accept', { token })),
    )
    expect(results.map((r) => r.status).sort()).toEqual(
      [200, 409, 410]
        .slice(0, 1)
        .concat(results.filter((r) => r.status !== 200).map((r) => r.status))
        .sort(),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  })

  it('revoked invitations stop working; only owners invite owners', async () => {
    const ws = await newWorkspace(server)
    const admin = await ws.addMember('admin')
    const invitee = await newPerson(server.engine)
    expect(
      (await admin.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email: invitee.user.email, role: 'owner' }))
        .status,
    ).toBe(403)
    const inv = await admin.api.post(`/v1/orgs/${ws.orgId}/invitations`, {
      email: invitee.user.email,
      role: 'member',
    })
    expect((await admin.api.post(`/v1/orgs/${ws.orgId}/invitations/${inv.body.id}/revoke`)).body.state).toBe(
      'revoked',
    )
    expect(
      (await server.as(invitee.token).post('/v1/invitations/accept', { token: tokenFor(invitee.user.email) }))
        .status,
    ).toBe(410)
    const member = await ws.addMember('member')
    expect(
      (await member.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email: 'x@example.com', role: 'member' }))
        .status,
    ).toBe(403)
  })

  it('changes roles, keeps the last owner, deactivates and reactivates at once for every token', async () => {
    const ws = await newWorkspace(server)
    const ownerId = (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data[0].id
    const demote = await ws.api.patch(`/v1/orgs/${ws.orgId}/members/${ownerId}`, { role: 'admin' })
    expect(demote.status).toBe(409)
    expect(demote.body.code).toBe('last_owner')
    const member = await ws.addMember('member')
    const admin = await ws.addMember('admin')
    expect(
      (await admin.api.patch(`/v1/orgs/${ws.orgId}/members/${member.memberId}`, { role: 'owner' })).status,
    ).toBe(403)
    expect(
      (await ws.api.patch(`/v1/orgs/${ws.orgId}/members/${member.memberId}`, { role: 'guest' })).body.role,
    ).toBe('guest')
    expect((await member.api.get(`/v1/orgs/${ws.orgId}/tasks`)).body.data).toEqual([])
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'hidden from guests' })
    expect((await member.api.get(`/v1/orgs/${ws.orgId}/tasks`)).body.data).toEqual([])
    expect(
      (await ws.api.post(`/v1/orgs/${ws.orgId}/members/${member.memberId}/deactivate`)).body.status,
    ).toBe('deactivated')
    expect((await member.api.get(`/v1/orgs/${ws.orgId}/tasks`)).status).toBe(404)
    expect(
      (await ws.api.post(`/v1/orgs/${ws.orgId}/members/${member.memberId}/reactivate`)).body.status,
    ).toBe('active')
    expect((await member.api.get(`/v1/orgs/${ws.orgId}/tasks`)).status).toBe(200)
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/members/${member.memberId}`)).status).toBe(204)
    expect((await member.api.get(`/v1/orgs/${ws.orgId}`)).status).toBe(404)
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/members/${member.memberId}`)).status).toBe(404)
  })

  it('grants to a person or a whole team, takes effect on the next request, and explains itself', async () => {
    const ws = await newWorkspace(server)
    const guest = await ws.addMember('guest')
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Secret plan' })
    const taskPath = `/v1/orgs/${ws.orgId}/tasks/${task.body.id}`
    expect((await guest.api.get(taskPath)).status).toBe(404)

    const other = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Guests', key: 'GST' })
    await ws.api.put(`/v1/orgs/${ws.orgId}/teams/${other.body.id}/members/${guest.memberId}`)
    const teamGrant = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'team',
      subjectId: other.body.id,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'comment',
    })
    expect(teamGrant.status).toBe(201)
    expect((await guest.api.get(taskPath)).body.title).toBe('Secret plan')
    const edit = await guest.api.patch(taskPath, { title: 'Mine' })
    expect(edit.body).toMatchObject({
      code: 'capability_required',
      capability: 'contribute',
      held: 'comment',
    })

    const direct = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'contribute',
    })
    expect((await guest.api.patch(taskPath, { title: 'Edited by a guest' })).status).toBe(200)
    const why = await guest.api.get(
      `/v1/orgs/${ws.orgId}/access/explain?actorId=${guest.memberId}&capability=assign&targetType=task&targetId=${task.body.id}`,
    )
    expect(why.body).toMatchObject({
      allowed: false,
      effective: 'contribute',
      visible: true,
      role: { role: 'guest', capability: null },
    })
    expect(why.body.grants.map((g: any) => g.id).sort()).toEqual([teamGrant.body.id, direct.body.id].sort())
    const nosy = await guest.api.get(
      `/v1/orgs/${ws.orgId}/access/explain?actorId=${ws.owner.user.id}&capability=view&targetType=org`,
    )
    expect(nosy.status).toBe(400)

    expect(
      (await ws.api.patch(`/v1/orgs/${ws.orgId}/grants/${direct.body.id}`, { capability: 'view' })).body
        .capability,
    ).toBe('view')
    expect((await guest.api.patch(taskPath, { title: 'Again' })).status).toBe(403)
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${teamGrant.body.id}`)).status).toBe(204)
    expect((await ws.api.delete(`/v1/orgs/${ws.orgId}/grants/${direct.body.id}`)).status).toBe(204)
    expect((await guest.api.get(taskPath)).status).toBe(404)
    const dup = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'org',
      containerId: ws.orgId,
      capability: 'view',
    })
    expect(dup.status).toBe(201)
    expect((await guest.api.get(taskPath)).status).toBe(200)
    expect((await guest.api.get(`/v1/orgs/${ws.orgId}/grants`)).status).toBe(403)
  })
})

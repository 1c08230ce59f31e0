import { newId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { activeConnection } from '../support/connectors.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const mine = '/v1/me/connections'

describeEachDatabase('me.connections.list', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const linker = async (userId: string, scopes = ['work:read', 'connectors:link']) =>
    server.as(await server.engine.tokens.issueAccessToken({ userId: userId as never, scopes }))
  /** Makes the owner of `a` a member of `b` too; answers their membership there. */
  const join = async (b: TestWorkspace, userId: string) => {
    const memberId = newId('MemberId')
    const now = new Date().toISOString()
    await server.storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: b.orgId,
        userId: userId as never,
        kind: 'person',
        role: 'member',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    return memberId
  }
  const ownerMember = async (ws: TestWorkspace) =>
    (await ws.api.get(`/v1/orgs/${ws.orgId}/members`)).body.data.find(
      (m: any) => m.userId === ws.owner.user.id,
    ).id as string

  it('lists my connections in every workspace, metadata only, and nobody else’s', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const userId = a.owner.user.id
    const inA = await activeConnection(server, a.orgId, await ownerMember(a), userId)
    const memberB = await join(b, userId)
    const inB = await activeConnection(server, b.orgId, memberB, userId)
    // b's owner has one of their own in b.
    await activeConnection(server, b.orgId, await ownerMember(b), b.owner.user.id)
    const api = await linker(userId)
    const res = await api.get(mine)
    expect(res.status).toBe(200)
    expect(res.body.data.map((c: any) => [c.id, c.orgId])).toEqual([
      [inA, a.orgId],
      [inB, b.orgId],
    ])
    expect(res.body.data[1]).toMatchObject({ memberId: memberB, providerId: 'github', status: 'active' })
    expect(JSON.stringify(res.body)).not.toMatch(/accessToken|refreshToken|sample-access-token|codeVerifier/)
    // A workspace where the membership ended is left out.
    await b.api.post(`/v1/orgs/${b.orgId}/members/${memberB}/deactivate`)
    const after = await api.get(mine)
    expect(after.body.data.map((c: any) => c.id)).toEqual([inA])
  })

  it('needs the connectors:link scope', async () => {
    const ws = await newWorkspace(server)
    const api = await linker(ws.owner.user.id, ['work:read', 'work:write'])
    expect((await api.get(mine)).body).toMatchObject({ status: 403, code: 'insufficient_scope' })
  })

  it('pages exactly across workspaces', async () => {
    const a = await newWorkspace(server)
    const b = await newWorkspace(server)
    const userId = a.owner.user.id
    const memberA = await ownerMember(a)
    const memberB = await join(b, userId)
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push(await activeConnection(server, i % 2 ? b.orgId : a.orgId, i % 2 ? memberB : memberA, userId))
    const api = await linker(userId)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const res: any = await api.get(`${mine}?limit=2${cursor ? `&cursor=${cursor}` : ''}`)
      seen.push(...res.body.data.map((c: any) => c.id))
      if (res.body.nextCursor) expect(res.body.data).toHaveLength(2)
      cursor = res.body.nextCursor
      pages++
    } while (cursor)
    expect(seen).toEqual(ids)
    expect(pages).toBe(3)
    expect((await api.get(`${mine}?cursor=forged.cursor`)).body.code).toBe('invalid_cursor')
  })
})

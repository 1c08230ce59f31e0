import { type Actor, readerFor, readOrg } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { openSse } from '../support/sse.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('stream permissions', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  it('gives two members with different grants exactly the events their grants allow, and a removed grant applies on the next frame', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const ops = (await ws.api.post(`${base}/teams`, { name: 'Ops', key: 'OPS' })).body.id
    const qa = (await ws.api.post(`${base}/teams`, { name: 'QA', key: 'QA' })).body.id
    const grant = async (subjectId: string, teamId: string) =>
      (
        await ws.api.post(`${base}/grants`, {
          subjectType: 'member',
          subjectId,
          containerType: 'team',
          containerId: teamId,
          capability: 'view',
        })
      ).body
    const eng = await ws.addMember('guest')
    const opsOnly = await ws.addMember('guest')
    const engGrant = await grant(eng.memberId, ws.teamId)
    await grant(eng.memberId, qa)
    await grant(opsOnly.memberId, ops)
    const live = await openSse(`${server.url}/v1/stream/sse?from=now`, { token: eng.token })

    for (const [team, title] of [
      [ws.teamId, 'eng 1'],
      [ops, 'ops 1'],
      [qa, 'qa 1'],
    ])
      await ws.api.post(`${base}/tasks`, { teamId: team, title })

    const all = (await ws.api.get(`${base}/stream?limit=500`)).body.data
    const visibleTo = (memberId: string, teams: string[]) =>
      all.filter((e: any) => teams.includes(e.teamId) || e.resourceId === memberId).map((e: any) => e.id)
    for (const [who, teams] of [
      [eng, [ws.teamId, qa]],
      [opsOnly, [ops]],
    ] as const) {
      const polled = (await who.api.get(`${base}/stream?limit=500`)).body.data.map((e: any) => e.id)
      expect(polled).toEqual(visibleTo(who.memberId, [...teams]))
      const hub = (await who.api.get('/v1/hub/stream?limit=500')).body.data.map((e: any) => e.id)
      expect(hub).toEqual(polled)
    }
    const titles = () => live.events().map((e) => e.data.task?.title)
    await live.until(() => titles().includes('qa 1'))
    expect(titles()).toEqual(['eng 1', 'qa 1'])

    await ws.api.delete(`${base}/grants/${engGrant.id}`)
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'eng 2' })
    await ws.api.post(`${base}/tasks`, { teamId: qa, title: 'qa 2' })
    await live.until(() => titles().includes('qa 2'))
    live.close()
    expect(titles()).toEqual(['eng 1', 'qa 1', 'qa 2'])

    // Agents read with their own grants.
    const agent = (await ws.api.post(`${base}/agents`, { name: 'Bot' })).body
    await ws.api.post(`${base}/grants`, {
      subjectType: 'agent',
      subjectId: agent.id,
      containerType: 'team',
      containerId: ops,
      capability: 'view',
    })
    const actor: Actor = {
      id: agent.id,
      kind: 'agent',
      orgId: ws.orgId,
      role: null,
      userId: null,
      name: 'Bot',
    }
    const page = await server.storage.read(async (s) =>
      readOrg(s, await readerFor(s, actor), null, { limit: 500 }),
    )
    const teams = new Set(page.events.map((e) => e.teamId))
    expect([...teams].every((t) => t === ops || t === null)).toBe(true)
    expect(page.events.some((e) => e.kind === 'task.created' && e.teamId === ops)).toBe(true)
  })
})

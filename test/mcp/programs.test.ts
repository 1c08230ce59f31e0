import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

describeEachDatabase('MCP programs and initiatives: names and tools', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  }, 120_000)
  afterAll(() => server.drop())

  it('resolves programs by name and initiatives by name or Parent/Child path, as the caller sees them', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const names = (q: string, api = ws.api) => api.get(`${base}/names?${q}`)
    const program = (await ws.api.post(`${base}/programs`, { name: 'Reliability' })).body
    expect((await names('kind=program&name=reliability')).body).toEqual({
      kind: 'program',
      id: program.id,
      label: 'Reliability',
    })
    expect((await names('kind=program&name=Relability')).body.code).toBe('unknown_name')
    const growth = (await ws.api.post(`${base}/initiatives`, { name: 'Growth' })).body
    const retention = (await ws.api.post(`${base}/initiatives`, { name: 'Retention' })).body
    const a = (await ws.api.post(`${base}/initiatives`, { name: 'Onboarding', parentId: growth.id })).body
    const b = (await ws.api.post(`${base}/initiatives`, { name: 'Onboarding', parentId: retention.id })).body
    const ambiguous = await names('kind=initiative&name=Onboarding')
    expect(ambiguous).toMatchObject({ status: 422, body: { code: 'ambiguous_name' } })
    expect(ambiguous.body.candidates.map((c: any) => c.label).sort()).toEqual([
      'Growth/Onboarding',
      'Retention/Onboarding',
    ])
    expect((await names('kind=initiative&name=Growth/Onboarding')).body.id).toBe(a.id)
    expect((await names(`kind=initiative&name=${b.id}`)).body.id).toBe(b.id)
    // A guest without projects in them sees no initiative.
    const guest = await teamGuest(ws, 'view')
    expect((await names('kind=initiative&name=Growth', guest.api)).body.code).toBe('unknown_name')
  })

  it('creates, fills, reports on and reads back programs and initiatives by name', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    await ws.api.post(`${base}/projects`, { name: 'Cache', teamIds: [ws.teamId] })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))

    const created = await tool(client, 'manage_program', {
      action: 'create',
      name: 'Reliability',
      owner: 'me',
    })
    expect(created).toMatchObject({
      name: 'Reliability',
      status: 'active',
      owner: expect.stringContaining(ws.owner.user.email),
    })
    expect(
      await tool(client, 'manage_program', {
        action: 'add_project',
        program: 'reliability',
        project: 'cache',
      }),
    ).toEqual({ program: 'reliability', project: 'Cache', position: 0 })
    const posted = await tool(client, 'manage_program', {
      action: 'post_update',
      program: 'Reliability',
      health: 'at risk',
      body: 'Cache misses are up.',
    })
    expect(posted).toMatchObject({ program: 'Reliability', health: 'atRisk' })
    expect(
      await tool(client, 'manage_program', { action: 'update', program: 'Reliability', status: 'paused' }),
    ).toMatchObject({ status: 'paused', health: 'atRisk' })

    const grow = await tool(client, 'manage_initiative', {
      action: 'create',
      name: 'Grow',
      targetDate: '2031-06-30',
    })
    expect(grow).toMatchObject({ name: 'Grow', targetDate: '2031-06-30' })
    await tool(client, 'manage_initiative', { action: 'create', name: 'Retain', parent: 'Grow' })
    expect(
      await tool(client, 'manage_initiative', {
        action: 'link_program',
        initiative: 'Grow',
        program: 'Reliability',
      }),
    ).toMatchObject({ initiative: 'Grow', linked: 'Reliability' })
    expect(
      await tool(client, 'manage_initiative', {
        action: 'link_project',
        initiative: 'Grow/Retain',
        project: 'Cache',
      }),
    ).toEqual({ initiative: 'Grow/Retain', linked: 'Cache' })
    await tool(client, 'manage_initiative', {
      action: 'post_update',
      initiative: 'Grow',
      health: 'on track',
      body: 'Fine.',
    })

    const program = await tool(client, 'get_program', { program: 'Reliability' })
    expect(program).toMatchObject({
      name: 'Reliability',
      status: 'paused',
      health: 'atRisk',
      projects: [{ name: 'Cache', health: null }],
      initiatives: ['Grow'],
      latestUpdate: { health: 'atRisk', body: 'Cache misses are up.' },
    })
    expect(program.computedHealth.value).toBe('atRisk')

    const initiative = await tool(client, 'get_initiative', { initiative: 'Grow' })
    expect(initiative).toMatchObject({
      name: 'Grow',
      health: 'onTrack',
      subInitiatives: [{ name: 'Retain' }],
      programs: [{ name: 'Reliability', status: 'paused' }],
      latestUpdate: { health: 'onTrack', body: 'Fine.' },
    })
    expect(
      await tool(client, 'manage_initiative', { action: 'update', initiative: 'Retain', parent: 'none' }),
    ).toMatchObject({ name: 'Retain' })
    expect((await tool(client, 'get_initiative', { initiative: 'Retain' })).subInitiatives).toEqual([])
    const unlinked = await tool(client, 'manage_initiative', {
      action: 'unlink_program',
      initiative: 'Grow',
      program: 'Reliability',
    })
    expect(unlinked).toEqual({ initiative: 'Grow', unlinked: 'Reliability' })
    expect((await tool(client, 'get_program', { program: 'Reliability' })).initiatives).toEqual([])
    const missing = await tool(client, 'manage_program', { action: 'post_update', program: 'Reliability' })
    expect(missing.error.code).toBe('validation_failed')
  })
})

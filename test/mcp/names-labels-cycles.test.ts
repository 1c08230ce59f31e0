import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'
import { connect, mcpToken, tool } from './support.ts'

const DAY = 86_400_000
const at = (days: number) => new Date(Date.now() + days * DAY).toISOString()

describeEachDatabase('MCP names: labels and cycles', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it('resolves labels: org and team labels, the task team first, ambiguity across teams, unknown names', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const des = (await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'DES' })).body
    const bug = (await ws.api.post(labels, { name: 'Bug' })).body
    const engFrontend = (await ws.api.post(labels, { name: 'Frontend', teamId: ws.teamId })).body
    const desFrontend = (await ws.api.post(labels, { name: 'Frontend', teamId: des.id })).body
    const size = (await ws.api.post(labels, { name: 'Size', isGroup: true })).body
    const large = (await ws.api.post(labels, { name: 'Large', parentId: size.id })).body
    await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: ws.teamId, title: 'Login' })
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))

    // On a task, its team's label is meant; names fold case; a group's label answers to `Group/Name`.
    const labelled = await tool(client, 'label_task', {
      task: 'ENG-1',
      add: ['frontend', 'BUG', 'Size/Large'],
    })
    expect(labelled.labels.sort()).toEqual(['Bug', 'Frontend', 'Large'])
    const task = (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/ENG-1`)).body
    expect(task.labelIds.sort()).toEqual([bug.id, engFrontend.id, large.id].sort())

    // Without a team, a name two teams use is ambiguous, and the candidates say whose each is.
    const names = (q: string) => ws.api.get(`/v1/orgs/${ws.orgId}/names?kind=label&${q}`)
    const ambiguous = await names('name=Frontend')
    expect(ambiguous.status).toBe(422)
    expect(ambiguous.body.code).toBe('ambiguous_name')
    expect(ambiguous.body.candidates.map((c: any) => c.label).sort()).toEqual([
      'Frontend (DES)',
      'Frontend (ENG)',
    ])
    expect((await names('name=Frontend&team=DES')).body.id).toBe(desFrontend.id)

    // A team label wins over an org label of the same name for that team's tasks.
    const orgFrontend = (await ws.api.post(labels, { name: 'Frontend' })).body
    expect((await names('name=Frontend&team=ENG')).body.id).toBe(engFrontend.id)
    expect(orgFrontend.teamId).toBeNull()

    // An archived label is no candidate, unless asked for (the one to restore).
    await ws.api.post(`${labels}/${bug.id}/archive`)
    expect((await names('name=Bug')).body.code).toBe('unknown_name')
    expect((await names('name=Bug&archived=true')).body.id).toBe(bug.id)
    expect((await names('name=Large&archived=true')).body.code).toBe('unknown_name')
    await ws.api.post(`${labels}/${bug.id}/restore`)

    const unknown = await names('name=Bgu')
    expect(unknown.body.code).toBe('unknown_name')
    expect(unknown.body.candidates.map((c: any) => c.label)).toContain('Bug (workspace)')
    const viaTool = await tool(client, 'label_task', { task: 'ENG-1', add: ['Bgu'] })
    expect(viaTool.error.code).toBe('unknown_name')

    // A guest who sees only ENG resolves `Frontend` to ENG's: DES's label is not a candidate.
    const guest = await teamGuest(ws, 'view')
    const seen = await guest.api.get(`/v1/orgs/${ws.orgId}/names?kind=label&name=Frontend`)
    expect(seen.status).toBe(422)
    expect(seen.body.candidates.map((c: any) => c.label).sort()).toEqual([
      'Frontend (ENG)',
      'Frontend (workspace)',
    ])
    const hidden = await guest.api.get(`/v1/orgs/${ws.orgId}/names?kind=label&name=Frontend&team=DES`)
    expect(hidden.status).toBe(422)
    expect(hidden.body).toMatchObject({ code: 'unknown_name', candidates: [] })
  })

  it('create_task and update_task take labels by name; update replaces the whole set', async () => {
    const ws = await newWorkspace(server)
    const labels = `/v1/orgs/${ws.orgId}/labels`
    const bug = (await ws.api.post(labels, { name: 'Bug' })).body
    const frontend = (await ws.api.post(labels, { name: 'Frontend', teamId: ws.teamId })).body
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    const created = await tool(client, 'create_task', {
      team: 'ENG',
      title: 'Login',
      labels: ['bug', 'Frontend'],
    })
    const byKey = async () => (await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/${created.key}`)).body
    expect((await byKey()).labelIds.sort()).toEqual([bug.id, frontend.id].sort())
    await tool(client, 'update_task', { task: created.key, labels: ['Frontend'] })
    expect((await byKey()).labelIds).toEqual([frontend.id])
  })

  it('resolves cycles by number, name, current, next and previous within a team', async () => {
    const ws = await newWorkspace(server)
    const cycles = `/v1/orgs/${ws.orgId}/teams/${ws.teamId}/cycles`
    const one = (await ws.api.post(cycles, { startsAt: at(-1), endsAt: at(6) })).body
    const two = (await ws.api.post(cycles, { name: 'Polish', startsAt: at(6), endsAt: at(13) })).body
    const three = (await ws.api.post(cycles, { name: 'Polish', startsAt: at(13), endsAt: at(20) })).body
    const names = (name: string, team = '&team=ENG') =>
      ws.api.get(`/v1/orgs/${ws.orgId}/names?kind=cycle&name=${encodeURIComponent(name)}${team}`)

    expect((await names('current')).body.id).toBe(one.id)
    expect((await names('next')).body.id).toBe(two.id)
    expect((await names('Cycle 3')).body.id).toBe(three.id)
    expect((await names('#1')).body.id).toBe(one.id)
    expect((await names('2')).body).toMatchObject({ id: two.id, label: 'ENG Cycle 2 Polish' })

    const ambiguous = await names('polish')
    expect(ambiguous.body.code).toBe('ambiguous_name')
    expect(ambiguous.body.candidates.map((c: any) => c.id).sort()).toEqual([two.id, three.id].sort())
    expect((await names('Cycle 9')).body.code).toBe('unknown_name')
    const previous = await names('previous')
    expect(previous.status).toBe(422)
    expect(previous.body.code).toBe('unknown_name')
    const noTeam = await names('current', '')
    expect(noTeam.status).toBe(422)
    expect(noTeam.body.errors[0].pointer).toBe('/query/team')

    // Through MCP: plan a task into the current cycle by word, list the cycle's tasks by number.
    const client = await connect(server, await mcpToken(server, ws.owner.user.id))
    await tool(client, 'create_task', { team: 'ENG', title: 'Now', cycle: 'current' })
    await tool(client, 'create_task', { team: 'ENG', title: 'Later', cycle: 'next' })
    const now = await tool(client, 'search_tasks', { team: 'ENG', cycle: 'Cycle 1' })
    expect(now.tasks.map((t: any) => t.title)).toEqual(['Now'])
    const listed = await tool(client, 'list_cycles', { team: 'ENG' })
    expect(listed.cycles.map((c: any) => [c.number, c.status])).toEqual([
      [1, 'active'],
      [2, 'upcoming'],
      [3, 'upcoming'],
    ])

    // A person who cannot see the team has no cycles to name.
    const guest = await ws.addMember('guest')
    const hidden = await guest.api.get(`/v1/orgs/${ws.orgId}/names?kind=cycle&name=current&team=ENG`)
    expect(hidden.status).toBe(422)
    expect(hidden.body.code).toBe('unknown_name')
  })
})

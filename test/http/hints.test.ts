/**
 * Where a newcomer stumbles, the problem says what to do instead: a task key where a task id
 * belongs, a misspelt field, a collection outside its workspace, a malformed If-Match, a value in
 * the wrong form; and each wrong field is reported once.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

describeEachDatabase('hints in problems', (db) => {
  let server: TestServer & { drop(): Promise<void> }
  let ws: TestWorkspace
  let taskId: string
  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title: 'Write the hints',
    })
    taskId = task.body.id
  })
  afterAll(() => server.drop())

  it('points a task key sent as a task id at the by-key read', async () => {
    const res = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/eng-1`)
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('invalid_identifier')
    const lookup = `GET /v1/orgs/${ws.orgId}/tasks/by-key/ENG-1`
    expect(res.body).toMatchObject({ expectedType: 'TaskId', lookup })
    expect(res.body.detail).toContain(`\`${lookup}\``)
    const byKey = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/by-key/ENG-1`)
    expect(byKey.body.id).toBe(taskId)
    const plain = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/nonsense`)
    expect(plain.body.detail).not.toContain('by-key')
    expect(plain.body.lookup).toBeUndefined()
  })

  it('points a workspace slug at the list of workspaces, and a team key at the teams', async () => {
    const slug = await ws.api.get('/v1/orgs/acme/teams')
    expect(slug).toMatchObject({
      status: 400,
      body: { code: 'invalid_identifier', expectedType: 'OrgId', lookup: 'GET /v1/orgs' },
    })
    expect(slug.body.detail).toContain('`acme` looks like a workspace slug')
    const teams = `/v1/orgs/${ws.orgId}/teams`
    const key = await ws.api.get(`${teams}/ENG/states`)
    expect(key).toMatchObject({
      status: 400,
      body: { code: 'invalid_identifier', expectedType: 'TeamId', lookup: `GET ${teams}` },
    })
    expect(key.body.detail).toContain('`ENG` looks like a team key')
    const listed = await ws.api.get(teams)
    expect(listed.body.data.find((t: any) => t.key === 'ENG').id).toBe(ws.teamId)
    // In a body too; the body does not name the workspace, so the read keeps its placeholder.
    const task = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: 'ENG', title: 'Keyed' })
    expect(task).toMatchObject({ status: 400, body: { code: 'invalid_identifier', expectedType: 'TeamId' } })
    expect(task.body.lookup).toBe('GET /v1/orgs/{orgId}/teams')
  })

  it('suggests the field a misspelt one most likely meant, and nothing for a stranger', async () => {
    const snake = await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${taskId}`, { state_id: ws.states.Todo!.id })
    expect(snake.status).toBe(400)
    expect(snake.body.errors).toEqual([
      { pointer: '/body/state_id', message: 'Unknown field; did you mean `stateId`?' },
    ])
    const typo = await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${taskId}`, { titel: 'x' })
    expect(typo.body.errors[0].message).toBe('Unknown field; did you mean `title`?')
    const stranger = await ws.api.patch(`/v1/orgs/${ws.orgId}/tasks/${taskId}`, { zzz: 1 })
    expect(stranger.body.errors[0].message).toBe('Unknown field')
  })

  it('refuses a value nested absurdly deep with 400 at its pointer, and creates nothing', async () => {
    const depth = 20_000
    const rawBody = `{"teamId":"${ws.teamId}","title":"deep","labelIds":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`
    const deep = await server.request('POST', `/v1/orgs/${ws.orgId}/tasks`, {
      token: ws.owner.token,
      rawBody,
      headers: { 'content-type': 'application/json' },
    })
    expect(deep.status).toBe(400)
    expect(deep.body.errors[0].pointer).toBe(`/body/labelIds${'/0'.repeat(31)}`)
    const listed = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks?q=deep`)
    expect(listed.body.data).toEqual([])
  })

  it('says where a collection lives when it is asked for outside a workspace', async () => {
    const res = await ws.api.get('/v1/tasks')
    expect(res.status).toBe(404)
    expect(res.body.detail).toContain('/v1/orgs/{orgId}/tasks')
    const elsewhere = await ws.api.get('/v1/nothing-here')
    expect(elsewhere.body.detail).toBe('Nothing lives at /v1/nothing-here.')
  })

  it('answers a malformed If-Match with 400 saying so, and changes nothing', async () => {
    const res = await ws.api.patch(
      `/v1/orgs/${ws.orgId}/tasks/${taskId}`,
      { title: 'Changed' },
      { 'if-match': 'abc123' },
    )
    expect(res.status).toBe(400)
    expect(res.body.code).toBe('bad_request')
    expect(res.body.errors[0].pointer).toBe('/headers/if-match')
    expect((await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${taskId}`)).body.title).toBe('Write the hints')
    const stale = await ws.api.patch(
      `/v1/orgs/${ws.orgId}/tasks/${taskId}`,
      { title: 'Changed' },
      { 'if-match': '"0000"' },
    )
    expect(stale.status).toBe(412)
    const current = await ws.api.get(`/v1/orgs/${ws.orgId}/tasks/${taskId}`)
    const ok = await ws.api.patch(
      `/v1/orgs/${ws.orgId}/tasks/${taskId}`,
      { title: 'Changed' },
      { 'if-match': `W/"other", ${current.headers.get('etag')}` },
    )
    expect(ok.status).toBe(200)
  })

  it('explains a value in the wrong form in words, and reports each field once', async () => {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/teams`, { name: 'Design', key: 'design!' })
    expect(res.status).toBe(400)
    const [error] = res.body.errors
    expect(error.pointer).toBe('/body/key')
    expect(error.message).toMatch(/^Not in the expected form/)
    expect(error.message).not.toContain('^[A-Z]')
    const many = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, { teamId: 42, title: 7 })
    const pointers = many.body.errors.map((e: { pointer: string }) => e.pointer)
    expect(pointers).toEqual([...new Set(pointers)])
  })
})

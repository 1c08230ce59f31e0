import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const BUILT_IN = {
  layout: 'list',
  groupBy: null,
  subGroupBy: null,
  orderBy: null,
  columns: [],
  showEmptyGroups: false,
  showSubtasks: true,
}

describeEachDatabase('view display preferences', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  it("layers built-in settings, the view's default and each person's own overrides", async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const view = (
      await ws.api.post(`${base}/views`, { name: 'Shared', filter: { priority: 'high' }, teamId: ws.teamId })
    ).body
    const path = `${base}/views/${view.id}/preferences`
    const member = await ws.addMember('member')

    const initial = await member.api.get(path)
    expect(initial.status).toBe(200)
    expect(initial.body).toEqual({
      viewId: view.id,
      effective: BUILT_IN,
      viewDefault: null,
      mine: null,
      updatedAt: null,
    })

    // The owner sets the view's default; a member may not.
    const byMember = await member.api.put(path, { level: 'default', preferences: { layout: 'board' } })
    expect(byMember.status).toBe(403)
    const set = await ws.api.put(path, {
      level: 'default',
      preferences: { layout: 'board', groupBy: 'state', columns: ['key', 'title'] },
    })
    expect(set.status, JSON.stringify(set.body)).toBe(200)

    // The member's own overrides sit on top, and never clobber the default or anyone else's.
    const mine = await member.api.put(path, { preferences: { orderBy: 'priority', groupBy: null } })
    expect(mine.status).toBe(200)
    expect(mine.body).toMatchObject({
      effective: {
        ...BUILT_IN,
        layout: 'board',
        groupBy: null,
        orderBy: 'priority',
        columns: ['key', 'title'],
      },
      viewDefault: { layout: 'board', groupBy: 'state', columns: ['key', 'title'] },
      mine: { orderBy: 'priority', groupBy: null },
      updatedAt: expect.any(String),
    })
    const owners = (await ws.api.get(path)).body
    expect(owners.mine).toBeNull()
    expect(owners.effective).toMatchObject({ layout: 'board', groupBy: 'state', orderBy: null })

    // PUT replaces the level's overrides as a whole.
    const replaced = await member.api.put(path, { level: 'mine', preferences: { layout: 'table' } })
    expect(replaced.body.mine).toEqual({ layout: 'table' })
    expect(replaced.body.effective).toMatchObject({ layout: 'table', groupBy: 'state' })

    // Bad values are refused with a pointer.
    const bad = await member.api.put(path, { preferences: { layout: 'gantt' } })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].pointer).toBe('/body/preferences/layout')

    // Dropping my overrides leaves the default; dropping what is not there is a 404.
    expect((await member.api.delete(path)).status).toBe(204)
    expect((await member.api.get(path)).body).toMatchObject({ mine: null, effective: { layout: 'board' } })
    expect((await member.api.delete(path)).status).toBe(404)
    expect((await member.api.delete(`${path}?level=default`)).status).toBe(403)
    expect((await ws.api.delete(`${path}?level=default`)).status).toBe(204)
    expect((await member.api.get(path)).body.effective).toEqual(BUILT_IN)

    // My own overrides are in my log only; the default's events are the team's.
    const seen = async (api: typeof ws.api) =>
      (await api.get(`${base}/stream?limit=200`)).body.data
        .filter((e: any) => e.kind.startsWith('view_preferences.'))
        .map((e: any) => `${e.kind}:${e.data.level}`)
    expect(await seen(ws.api)).toEqual([
      'view_preferences.updated:default',
      'view_preferences.deleted:default',
    ])
    expect(await seen(member.api)).toEqual([
      'view_preferences.updated:default',
      'view_preferences.updated:mine',
      'view_preferences.updated:mine',
      'view_preferences.deleted:mine',
      'view_preferences.deleted:default',
    ])
  })

  it('answers 404 for a view the caller cannot see, and drops preferences with the view', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const personal = (await ws.api.post(`${base}/views`, { name: 'Mine', filter: {} })).body
    const path = `${base}/views/${personal.id}/preferences`
    expect((await ws.api.put(path, { preferences: { layout: 'table' } })).status).toBe(200)
    const member = await ws.addMember('member')
    expect((await member.api.get(path)).status).toBe(404)
    expect((await member.api.put(path, { preferences: { layout: 'list' } })).status).toBe(404)
    expect((await member.api.delete(path)).status).toBe(404)
    expect((await ws.api.delete(`${base}/views/${personal.id}`)).status).toBe(204)
    expect((await ws.api.get(path)).status).toBe(404)
    const left = await server.storage.read((s) => s.viewPreferences.get(ws.orgId as never, personal.id, null))
    expect(left).toBeNull()
  })
})

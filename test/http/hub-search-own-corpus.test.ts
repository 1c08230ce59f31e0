import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { postIn } from '../support/hub-workspaces.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * A workspace's search ranks its matches among its own records: what another workspace writes does
 * not reorder them. On SQLite, where every workspace shares one full-text index, bm25 weighed a word
 * by how many rows of every workspace held it, so a tenant writing "alpha" many times demoted another
 * tenant's "alpha" matches (issue 31). Postgres's `ts_rank` reads only the row.
 */
describeEachDatabase('hub search ranks within the workspace', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let a: TestWorkspace
  let b: TestWorkspace

  beforeAll(async () => {
    server = await startTestServer(db)
    a = await newWorkspace(server)
    b = await newWorkspace(server)
    for (let i = 0; i < 8; i++) await postIn(b, '/tasks', { teamId: b.teamId, title: `filler ${i}` })
    for (let i = 0; i < 8; i++) await postIn(a, '/tasks', { teamId: a.teamId, title: `padding ${i}` })
  })
  afterAll(() => server.close())

  it("keeps a workspace's order when another workspace writes the searched words", async () => {
    // In A "beta" is the commoner word (three rows to alpha's two), so "alpha" weighs more and the
    // title with alpha twice ranks first.
    const alphaTwice = (await postIn(a, '/tasks', { teamId: a.teamId, title: 'alpha alpha beta' })).id
    const betaTwice = (await postIn(a, '/tasks', { teamId: a.teamId, title: 'alpha beta beta' })).id
    await postIn(a, '/tasks', { teamId: a.teamId, title: 'beta gamma' })
    const order = async () =>
      (await a.api.get('/v1/hub/search?q=alpha%20beta&types=task')).body.data.map((hit: any) => hit.id)
    const before = await order()
    expect(before).toHaveLength(2)
    if (db.name === 'sqlite') expect(before).toEqual([alphaTwice, betaTwice])
    for (let i = 0; i < 12; i++) await postIn(b, '/tasks', { teamId: b.teamId, title: `alpha ${i}` })
    expect(await order()).toEqual(before)
  })
})

import { afterAll, beforeAll, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

describeEachDatabase('labels on programs and initiatives', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  for (const kind of ['programs', 'initiatives'] as const) {
    it(`${kind}: adds and removes org labels, one per group, with history and events`, async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const record = (await ws.api.post(`${o}/${kind}`, { name: 'R' })).body
      expect(record.labelIds).toEqual([])
      const labels = `${o}/labels`
      const bug = (await ws.api.post(labels, { name: 'Bug' })).body
      const group = (await ws.api.post(labels, { name: 'Size', isGroup: true })).body
      const small = (await ws.api.post(labels, { name: 'Small', parentId: group.id })).body
      const large = (await ws.api.post(labels, { name: 'Large', parentId: group.id })).body
      const teamLabel = (await ws.api.post(labels, { name: 'Team', teamId: ws.teamId })).body
      const archived = (await ws.api.post(labels, { name: 'Old' })).body
      expect((await ws.api.post(`${labels}/${archived.id}/archive`)).status).toBe(200)
      const base = `${o}/${kind}/${record.id}/labels`

      expect(await ws.api.put(`${base}/${bug.id}`)).toMatchObject({
        status: 200,
        body: { id: record.id, labelIds: [bug.id] },
      })
      expect((await ws.api.put(`${base}/${bug.id}`)).body.labelIds).toEqual([bug.id])
      expect((await ws.api.put(`${base}/${small.id}`)).body.labelIds).toEqual([bug.id, small.id])
      expect((await ws.api.put(`${base}/${large.id}`)).body.labelIds).toEqual([bug.id, large.id])
      for (const id of [teamLabel.id, group.id, archived.id, 'lbl_01JD3Q2R4S5T6V7W8X9YZABCDE']) {
        expect(await ws.api.put(`${base}/${id}`)).toMatchObject({
          status: 422,
          body: { code: 'reference_not_found', errors: [{ pointer: '/params/labelId' }] },
        })
      }
      expect(await ws.api.put(`${base}/prg_01JD3Q2R4S5T6V7W8X9YZABCDE`)).toMatchObject({
        status: 400,
      })
      expect((await ws.api.delete(`${base}/${bug.id}`)).status).toBe(204)
      expect((await ws.api.delete(`${base}/${bug.id}`)).status).toBe(204)
      expect((await ws.api.delete(`${base}/lbl_01JD3Q2R4S5T6V7W8X9YZABCDE`)).status).toBe(404)
      expect((await ws.api.get(`${o}/${kind}/${record.id}`)).body.labelIds).toEqual([large.id])

      // Deleting the label takes it off.
      expect((await ws.api.delete(`${labels}/${large.id}`)).status).toBe(204)
      expect((await ws.api.get(`${o}/${kind}/${record.id}`)).body.labelIds).toEqual([])

      const updated = (await ws.api.get(`${o}/stream?limit=200`)).body.data.filter(
        (e: any) => e.kind === `${kind.slice(0, -1)}.updated` && e.data.changes?.labelIds,
      )
      expect(updated.map((e: any) => e.data.changes.labelIds.after)).toEqual([
        [bug.id],
        [bug.id, small.id],
        [bug.id, large.id],
        [large.id],
      ])
    })

    it(`${kind}: filters the list by label`, async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const label = (await ws.api.post(`${o}/labels`, { name: 'Q3' })).body
      const ids: string[] = []
      for (const name of ['A', 'B', 'C', 'D']) ids.push((await ws.api.post(`${o}/${kind}`, { name })).body.id)
      for (const id of [ids[0], ids[2], ids[3]]) {
        expect((await ws.api.put(`${o}/${kind}/${id}/labels/${label.id}`)).status).toBe(200)
      }
      const seen: string[] = []
      let cursor: string | null = null
      do {
        const page: any = await ws.api.get(
          `${o}/${kind}?labelId=${label.id}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
        )
        expect(page.body.data.length).toBeLessThanOrEqual(2)
        for (const r of page.body.data) expect(r.labelIds).toEqual([label.id])
        seen.push(...page.body.data.map((r: any) => r.id))
        cursor = page.body.nextCursor
      } while (cursor)
      expect(seen).toEqual([ids[3], ids[2], ids[0]])
      expect((await ws.api.get(`${o}/${kind}`)).body.data).toHaveLength(4)
      expect((await ws.api.get(`${o}/${kind}?labelId=lbl`)).status).toBe(400)
    })
  }

  it('a viewer gets 403 and an outsider 404, and nothing changes', async () => {
    const ws = await newWorkspace(server)
    const o = `/v1/orgs/${ws.orgId}`
    const label = (await ws.api.post(`${o}/labels`, { name: 'Q3' })).body
    const project = (await ws.api.post(`${o}/projects`, { name: 'P', teamIds: [ws.teamId] })).body
    const program = (await ws.api.post(`${o}/programs`, { name: 'Ops' })).body
    const initiative = (await ws.api.post(`${o}/initiatives`, { name: 'Grow' })).body
    await ws.api.put(`${o}/initiatives/${initiative.id}/projects/${project.id}`)
    // The guest views the program through its team, the initiative through its project.
    await ws.api.put(`${o}/programs/${program.id}/teams/${ws.teamId}`)
    const viewer = await teamGuest(ws, 'view')
    const other = await newWorkspace(server)
    for (const path of [`${o}/programs/${program.id}`, `${o}/initiatives/${initiative.id}`]) {
      expect((await viewer.api.get(path)).status).toBe(200)
      expect(await viewer.api.put(`${path}/labels/${label.id}`)).toMatchObject({
        status: 403,
        body: { code: 'capability_required', capability: 'contribute' },
      })
      expect((await viewer.api.delete(`${path}/labels/${label.id}`)).status).toBe(403)
      expect((await other.api.put(`${path}/labels/${label.id}`)).status).toBe(404)
      const foreign = path.replace(ws.orgId, other.orgId)
      expect((await other.api.put(`${foreign}/labels/${label.id}`)).status).toBe(404)
      expect((await ws.api.get(path)).body.labelIds).toEqual([])
    }
  })
})

import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { readAll } from '../support/task-helpers.ts'
import { newWorkspace } from '../support/workspace.ts'

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((x) => x.id)

// Status updates posted on initiatives, and the org's feed of every update the caller may see.
describeEachDatabase('initiative updates and the org feed', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  describe('status updates on initiatives and the org feed', () => {
    it('posts and lists initiative updates by page, edits them through /updates, and sets health', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const ini = (await ws.api.post(`${o}/initiatives`, { name: 'I' })).body
      const url = `${o}/initiatives/${ini.id}/updates`
      const listed = `${o}/updates?subjectType=initiative&subjectId=${ini.id}`
      const first = await ws.api.post(url, { body: 'Kickoff', health: 'onTrack' })
      expect(first.status).toBe(201)
      expect(first.headers.get('location')).toBe(`${o}/updates/${first.body.id}`)
      expect(first.body).toMatchObject({ subjectType: 'initiative', subjectId: ini.id, progress: null })
      await ws.api.post(url, { body: 'Slipping', health: 'atRisk' })
      const late = (await ws.api.post(url, { body: 'Late', health: 'offTrack' })).body
      expect((await readAll(ws, listed, 2)).map((u) => u.body)).toEqual(['Late', 'Slipping', 'Kickoff'])
      expect((await ws.api.get(`${o}/initiatives/${ini.id}`)).body.health).toBe('offTrack')
      expect(ids(await ws.api.get(`${o}/initiatives?health=offTrack`))).toEqual([ini.id])

      expect(
        (await ws.api.patch(`${o}/updates/${late.id}`, { health: 'atRisk' })).body.editedAt,
      ).not.toBeNull()
      expect((await ws.api.get(`${o}/updates/${late.id}/history`)).body.data).toHaveLength(1)
      await ws.api.post(`${o}/updates/${late.id}/archive`)
      expect((await ws.api.get(`${o}/initiatives/${ini.id}`)).body.health).toBe('atRisk')
      expect((await ws.api.get(listed)).body.data.map((u: any) => u.body)).toEqual(['Slipping', 'Kickoff'])
      expect((await ws.api.get(`${listed}&archived=only`)).body.data.map((u: any) => u.id)).toEqual([late.id])
      await ws.api.post(`${o}/updates/${late.id}/restore`)
      expect((await ws.api.delete(`${o}/updates/${late.id}`)).status).toBe(204)
      const kinds = (await ws.api.get(`${o}/stream`)).body.data.map((e: any) => e.kind)
      expect(kinds).toEqual(
        expect.arrayContaining([
          'initiative_update.created',
          'initiative_update.updated',
          'initiative_update.archived',
          'initiative_update.restored',
          'initiative_update.deleted',
        ]),
      )
      await ws.api.post(`${o}/initiatives/${ini.id}/archive`)
      expect((await ws.api.post(url, { body: 'x', health: 'onTrack' })).body.code).toBe('archived')
      // Deleting the initiative deletes its updates.
      const kept = (await ws.api.get(listed)).body.data[0]
      await ws.api.delete(`${o}/initiatives/${ini.id}`)
      expect((await ws.api.get(`${o}/updates/${kept.id}`)).status).toBe(404)
    })

    it('feeds every visible update of the org newest first, by page, with filters', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
      const seen = (await ws.api.post(`${o}/projects`, { name: 'Seen', teamIds: [ws.teamId] })).body
      const hidden = (await ws.api.post(`${o}/projects`, { name: 'Hidden', teamIds: [design.id] })).body
      const ini = (await ws.api.post(`${o}/initiatives`, { name: 'I' })).body
      const lone = (await ws.api.post(`${o}/initiatives`, { name: 'Lone' })).body
      await ws.api.put(`${o}/initiatives/${ini.id}/projects/${seen.id}`)
      const author = await ws.addMember('member')
      const post = async (who: typeof ws.api, path: string, body: string, health: string) =>
        (await who.post(`${o}/${path}/updates`, { body, health })).body
      const u1 = await post(ws.api, `projects/${seen.id}`, 'p1', 'onTrack')
      const u2 = await post(ws.api, `projects/${hidden.id}`, 'h1', 'offTrack')
      const u3 = await post(author.api, `initiatives/${ini.id}`, 'i1', 'atRisk')
      const u4 = await post(ws.api, `initiatives/${lone.id}`, 'l1', 'onTrack')
      const u5 = await post(ws.api, `projects/${seen.id}`, 'p2', 'atRisk')
      await ws.api.post(`${o}/updates/${u1.id}/archive`)

      const feed = `${o}/updates`
      expect((await readAll(ws, feed, 2)).map((u) => u.id)).toEqual([u5.id, u4.id, u3.id, u2.id])
      expect(ids(await ws.api.get(`${feed}?subjectType=initiative`))).toEqual([u4.id, u3.id])
      expect(ids(await ws.api.get(`${feed}?subjectId=${seen.id}`))).toEqual([u5.id])
      expect(ids(await ws.api.get(`${feed}?health=atRisk`))).toEqual([u5.id, u3.id])
      expect(ids(await ws.api.get(`${feed}?authorId=${author.memberId}`))).toEqual([u3.id])
      expect(ids(await ws.api.get(`${feed}?since=${encodeURIComponent(u3.createdAt)}`))).toEqual([
        u5.id,
        u4.id,
        u3.id,
      ])
      expect(ids(await ws.api.get(`${feed}?until=${encodeURIComponent(u3.createdAt)}`))).toEqual([u2.id])
      const bad = await ws.api.get(
        `${feed}?since=${encodeURIComponent(u3.createdAt)}&until=${encodeURIComponent(u2.createdAt)}`,
      )
      expect(bad).toMatchObject({ status: 422, body: { code: 'rule_violated' } })

      // A guest on ENG sees Seen's updates and the initiative holding Seen; not Hidden nor Lone.
      const guest = await teamGuest(ws, 'view')
      expect((await readAll(guest, feed, 1)).map((u) => u.id)).toEqual([u5.id, u3.id])
    })
  })
})

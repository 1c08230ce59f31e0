import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamGuest } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

// An initiative's rollup through the programs linked to it (docs/initiatives.md, "Rollups").
describeEachDatabase('initiative rollups through programs', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  describe('rollups through programs', () => {
    it('counts the projects of linked programs once and their health, but not a program the reader cannot view', async () => {
      const ws = await newWorkspace(server)
      const o = `/v1/orgs/${ws.orgId}`
      const design = (await ws.api.post(`${o}/teams`, { name: 'Design', key: 'DES' })).body
      const root = (await ws.api.post(`${o}/initiatives`, { name: 'Root' })).body
      const child = (await ws.api.post(`${o}/initiatives`, { name: 'Child', parentId: root.id })).body
      const ops = (await ws.api.post(`${o}/projects`, { name: 'Ops', teamIds: [ws.teamId] })).body
      const infra = (await ws.api.post(`${o}/projects`, { name: 'Infra', teamIds: [design.id] })).body
      const program = (await ws.api.post(`${o}/programs`, { name: 'Reliability' })).body
      for (const project of [ops, infra])
        expect((await ws.api.put(`${o}/programs/${program.id}/projects/${project.id}`)).status).toBe(200)
      // The program serves the sub-initiative; Ops is also linked to the root directly.
      expect((await ws.api.put(`${o}/initiatives/${child.id}/programs/${program.id}`)).status).toBe(200)
      await ws.api.put(`${o}/initiatives/${root.id}/projects/${ops.id}`)
      const task = (teamId: string, projectId: string, estimate: number, stateId?: string) =>
        ws.api.post(`${o}/tasks`, {
          teamId,
          title: 't',
          projectId,
          estimate,
          ...(stateId ? { stateId } : {}),
        })
      await task(ws.teamId, ops.id, 2, ws.states.Done!.id)
      await task(ws.teamId, ops.id, 2)
      await task(design.id, infra.id, 4)
      await ws.api.post(`${o}/programs/${program.id}/updates`, { body: 'flaky', health: 'atRisk' })

      const full = (await ws.api.get(`${o}/initiatives/${root.id}/rollup`)).body
      expect(full).toMatchObject({ projects: 2, subInitiatives: 1, total: { tasks: 3, points: 8 } })
      expect(full.completedRatio).toBeCloseTo(2 / 8)
      expect(full.computedHealth).toEqual({
        value: 'atRisk',
        summary: '1 program at risk: Reliability',
        reasons: [{ type: 'program', id: program.id, name: 'Reliability', health: 'atRisk' }],
      })
      const tree = (await ws.api.get(`${o}/initiatives/tree`)).body.data
      expect(tree.find((n: any) => n.id === child.id)).toMatchObject({
        projects: 2,
        computedHealth: 'atRisk',
      })

      // A guest on the first team sees Ops (linked to the root) but not the program: nothing of it counts.
      const guest = await teamGuest(ws, 'view')
      const seen = (await guest.api.get(`${o}/initiatives/${root.id}/rollup`)).body
      expect(seen).toMatchObject({ projects: 1, total: { tasks: 2, points: 4 } })
      expect(seen.computedHealth.value).toBeNull()
      expect(JSON.stringify(seen)).not.toContain('Reliability')

      // A retired program no longer speaks for the health; its projects still count.
      await ws.api.patch(`${o}/programs/${program.id}`, { status: 'retired' })
      const later = (await ws.api.get(`${o}/initiatives/${root.id}/rollup`)).body
      expect(later).toMatchObject({ projects: 2, computedHealth: { value: null } })
    })
  })
})

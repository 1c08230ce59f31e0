import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>

/** A record with a history of at least five entries, its last change known. */
interface HistoryCase {
  api: TestWorkspace['api']
  path: string
  /** Whether an entry is the record's last change (the newest). */
  isNewest: (entry: any) => boolean
}

const EDITS = ['v2', 'v3', 'v4', 'v5', 'v6']

/** Every history list of the catalogue: each writes a record, then edits it five times. */
const CASES: Record<string, (server: Server) => Promise<HistoryCase>> = {
  'tasks.history.list': async (server) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'v1' })).body
    for (const title of EDITS) await ws.api.patch(`${base}/tasks/${task.id}`, { title })
    return {
      api: ws.api,
      path: `${base}/tasks/${task.id}/history`,
      isNewest: (e) => e.field === 'title' && e.after === 'v6',
    }
  },
  'projects.history.list': async (server) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const project = (await ws.api.post(`${base}/projects`, { name: 'v1', teamIds: [ws.teamId] })).body
    for (const name of EDITS) await ws.api.patch(`${base}/projects/${project.id}`, { name })
    return {
      api: ws.api,
      path: `${base}/projects/${project.id}/history`,
      isNewest: (e) => e.field === 'name' && e.after === 'v6',
    }
  },
  'programs.history.list': async (server) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const program = (await ws.api.post(`${base}/programs`, { name: 'v1' })).body
    for (const name of EDITS) await ws.api.patch(`${base}/programs/${program.id}`, { name })
    return {
      api: ws.api,
      path: `${base}/programs/${program.id}/history`,
      isNewest: (e) => e.field === 'name' && e.after === 'v6',
    }
  },
  'initiatives.history.list': async (server) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const initiative = (await ws.api.post(`${base}/initiatives`, { name: 'v1' })).body
    for (const name of EDITS) await ws.api.patch(`${base}/initiatives/${initiative.id}`, { name })
    return {
      api: ws.api,
      path: `${base}/initiatives/${initiative.id}/history`,
      isNewest: (e) => JSON.stringify(e.changes ?? {}).includes('"v6"'),
    }
  },
  'comments.history.list': async (server) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const task = (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Discuss' })).body
    const comment = (await ws.api.post(`${base}/tasks/${task.id}/comments`, { body: 'v1' })).body
    for (const body of EDITS) await ws.api.patch(`${base}/comments/${comment.id}`, { body })
    // Each entry is the body an edit replaced: the newest is the one the last edit (to v6) replaced.
    return { api: ws.api, path: `${base}/comments/${comment.id}/history`, isNewest: (e) => e.body === 'v5' }
  },
}

/** The time an entry was written: a revision's is when it was replaced. */
const at = (e: any) => (e.replacedAt ?? e.createdAt) as string

describeEachDatabase('one history idiom', (db) => {
  let server: Server
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  for (const [operation, setup] of Object.entries(CASES)) {
    it(`${operation}: newest first, keyset pages that cover every entry once, limit respected`, async () => {
      const c = await setup(server)
      const whole = await c.api.get(`${c.path}?limit=100`)
      expect(whole.status).toBe(200)
      expect(whole.body.nextCursor).toBeNull()
      const all = whole.body.data as any[]
      expect(all.length).toBeGreaterThanOrEqual(5)
      expect(c.isNewest(all[0]), JSON.stringify(all[0])).toBe(true)
      const times = all.map(at)
      expect(times).toEqual([...times].sort().reverse())

      for (const limit of [1, 2, 3]) {
        const seen: any[] = []
        let cursor: string | null = null
        let pages = 0
        do {
          const page: any = await c.api.get(`${c.path}?limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
          expect(page.status).toBe(200)
          expect(Object.keys(page.body).sort()).toEqual(['data', 'nextCursor'])
          expect(page.body.data.length).toBeLessThanOrEqual(limit)
          if (page.body.nextCursor) expect(page.body.data).toHaveLength(limit)
          seen.push(...page.body.data)
          cursor = page.body.nextCursor
          pages += 1
        } while (cursor && pages < 100)
        expect(
          seen.map((e) => e.id),
          `limit ${limit}`,
        ).toEqual(all.map((e) => e.id))
      }
      const bad = await c.api.get(`${c.path}?limit=0`)
      expect(bad.status).toBe(400)
    })
  }
})

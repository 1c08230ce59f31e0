import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
type Api = TestWorkspace['api']

/** One ordered list, as a move test needs it. */
interface MoveCase {
  /** Who moves (the list's owner). */
  api: Api
  /** The workspace whose event log must stay quiet on a move that changes nothing. */
  orgId: string
  /** Three items of the list, in its order. */
  ids: [string, string, string]
  /** The move operation's path for an item. */
  movePath: (id: string) => string
  /** The list's items in order, with `position` where the resource shows one. */
  read: () => Promise<Array<{ id: string; position?: number }>>
  /** The moved item's `position` in the move's answer (the field answers with its options); tasks show none. */
  positionIn?: (body: any, id: string) => number
  /** What every move body of the list carries besides the anchor (a task's `list`). */
  body?: Record<string, unknown>
  /** An item of another list of the same kind. */
  foreign: string
  /** The event kind a move emits; null for personal lists, which emit none. */
  event: string | null
}

const org = (ws: TestWorkspace) => `/v1/orgs/${ws.orgId}`
const data = (res: { body: any }) => res.body.data as Array<{ id: string; position: number }>

/**
 * A task's list of the kind: three tasks in it, and one in another list of the kind (another state,
 * project or cycle). Read with `sort=rank`.
 */
const taskCase =
  (list: 'board' | 'project' | 'cycle') =>
  async (server: Server): Promise<MoveCase> => {
    const ws = await newWorkspace(server)
    const base = org(ws)
    const states = data(await ws.api.get(`${base}/teams/${ws.teamId}/states`))
    const container = async (): Promise<Record<string, string>> => {
      if (list === 'board') return {}
      if (list === 'project')
        return {
          projectId: (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body.id,
        }
      const day = 86_400_000
      const cycles = (await ws.api.get(`${base}/teams/${ws.teamId}/cycles`)).body.data.length
      const startsAt = new Date(Date.UTC(2031, 0, 1) + cycles * 7 * day).toISOString()
      const endsAt = new Date(Date.parse(startsAt) + 7 * day).toISOString()
      return {
        cycleId: (await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, { startsAt, endsAt })).body.id,
      }
    }
    const [home, away] = [await container(), await container()]
    const task = async (title: string, where: Record<string, string>) =>
      (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title, ...where })).body.id as string
    const ids = [] as unknown as [string, string, string]
    for (const title of ['A', 'B', 'C']) ids.push(await task(title, home))
    const filter =
      list === 'board'
        ? `stateId=${states[0]!.id}`
        : list === 'project'
          ? `projectId=${home.projectId}`
          : `cycleId=${home.cycleId}`
    // With `sort=rank` the task's list takes one query: the board column is the first state's.
    if (list === 'board')
      for (const id of ids) await ws.api.patch(`${base}/tasks/${id}`, { stateId: states[0]!.id })
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `${base}/tasks/${id}/move`,
      read: async () =>
        data(await ws.api.get(`${base}/tasks?${filter}&sort=rank&limit=200`)).map((t) => ({ id: t.id })),
      body: { list },
      foreign:
        list === 'board'
          ? await (async () => {
              const id = await task('Elsewhere', {})
              await ws.api.patch(`${base}/tasks/${id}`, { stateId: states[1]!.id })
              return id
            })()
          : await task('Elsewhere', away),
      event: 'task.moved',
    }
  }

/** Every move operation of the catalogue: each builds a list of three in a new workspace. */
const CASES: Record<string, (server: Server) => Promise<MoveCase>> = {
  'tasks.move (board)': taskCase('board'),
  'tasks.move (project)': taskCase('project'),
  'tasks.move (cycle)': taskCase('cycle'),
  'milestones.move': async (server) => {
    const ws = await newWorkspace(server)
    const project = async () =>
      (await ws.api.post(`${org(ws)}/projects`, { name: 'P', teamIds: [ws.teamId] })).body.id as string
    const [p, q] = [await project(), await project()]
    const add = async (projectId: string, name: string) =>
      (await ws.api.post(`${org(ws)}/projects/${projectId}/milestones`, { name })).body.id as string
    const ids = [await add(p, 'A'), await add(p, 'B'), await add(p, 'C')] as [string, string, string]
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `${org(ws)}/milestones/${id}/move`,
      read: async () => data(await ws.api.get(`${org(ws)}/projects/${p}/milestones`)),
      positionIn: (body) => body.position,
      foreign: await add(q, 'Elsewhere'),
      event: 'milestone.moved',
    }
  },
  'programs.projects.move': async (server) => {
    const ws = await newWorkspace(server)
    const linked = async (programId: string, name: string) => {
      const id = (await ws.api.post(`${org(ws)}/projects`, { name, teamIds: [ws.teamId] })).body.id as string
      await ws.api.put(`${org(ws)}/programs/${programId}/projects/${id}`)
      return id
    }
    const program = async () => (await ws.api.post(`${org(ws)}/programs`, { name: 'P' })).body.id as string
    const [p, q] = [await program(), await program()]
    const ids = [await linked(p, 'A'), await linked(p, 'B'), await linked(p, 'C')] as [string, string, string]
    const list = `${org(ws)}/programs/${p}/projects`
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `${list}/${id}/move`,
      read: async () =>
        (await ws.api.get(list)).body.data.map((l: any) => ({ id: l.projectId, position: l.position })),
      positionIn: (body) => body.position,
      // Another program's project is another list.
      foreign: await linked(q, 'Elsewhere'),
      event: 'program.projects_reordered',
    }
  },
  'initiatives.projects.move': async (server) => {
    const ws = await newWorkspace(server)
    const linked = async (initiativeId: string, name: string) => {
      const id = (await ws.api.post(`${org(ws)}/projects`, { name, teamIds: [ws.teamId] })).body.id as string
      await ws.api.put(`${org(ws)}/initiatives/${initiativeId}/projects/${id}`)
      return id
    }
    const initiative = async () =>
      (await ws.api.post(`${org(ws)}/initiatives`, { name: 'I' })).body.id as string
    const [i, j] = [await initiative(), await initiative()]
    const ids = [await linked(i, 'A'), await linked(i, 'B'), await linked(i, 'C')] as [string, string, string]
    const list = `${org(ws)}/initiatives/${i}/projects`
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `${list}/${id}/move`,
      read: async () =>
        (await ws.api.get(list)).body.data.map((l: any) => ({ id: l.projectId, position: l.position })),
      positionIn: (body) => body.position,
      foreign: await linked(j, 'Elsewhere'),
      event: 'initiative.project_updated',
    }
  },
  'states.move': async (server) => {
    const ws = await newWorkspace(server)
    const other = (await ws.api.post(`${org(ws)}/teams`, { name: 'Ops', key: 'OPS' })).body.id
    const list = `${org(ws)}/teams/${ws.teamId}/states`
    const all = data(await ws.api.get(list))
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids: [all[0]!.id, all[1]!.id, all.at(-1)!.id],
      movePath: (id) => `${org(ws)}/states/${id}/move`,
      read: async () => data(await ws.api.get(list)),
      positionIn: (body) => body.position,
      foreign: data(await ws.api.get(`${org(ws)}/teams/${other}/states`))[0]!.id,
      event: 'workflow_state.moved',
    }
  },
  'projectStatuses.move': async (server) => {
    const ws = await newWorkspace(server)
    const stranger = await newWorkspace(server)
    const list = `${org(ws)}/project-statuses?limit=100`
    const all = data(await ws.api.get(list))
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids: [all[0]!.id, all[1]!.id, all.at(-1)!.id],
      movePath: (id) => `${org(ws)}/project-statuses/${id}/move`,
      read: async () => data(await ws.api.get(list)),
      positionIn: (body) => body.position,
      // Statuses are one list per workspace: another workspace's is another list.
      foreign: data(await stranger.api.get(`${org(stranger)}/project-statuses`))[0]!.id,
      event: 'project_status.moved',
    }
  },
  'customFields.options.move': async (server) => {
    const ws = await newWorkspace(server)
    const field = async (name: string) =>
      (
        await ws.api.post(`${org(ws)}/custom-fields`, {
          name,
          type: 'select',
          options: [{ name: 'Low' }, { name: 'Mid' }, { name: 'High' }],
        })
      ).body
    const [f, g] = [await field('Impact'), await field('Effort')]
    const options = async () =>
      ((await ws.api.get(`${org(ws)}/custom-fields/${f.id}`)).body.options as Array<{ id: string }>).map(
        (o) => ({ id: o.id }),
      )
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids: f.options.map((o: { id: string }) => o.id) as [string, string, string],
      movePath: (id) => `${org(ws)}/custom-fields/${f.id}/options/${id}/move`,
      read: options,
      positionIn: (body, id) => body.options.findIndex((o: { id: string }) => o.id === id),
      foreign: g.options[0].id,
      event: 'custom_field.updated',
    }
  },
  'me.favorites.move': async (server) => {
    const ws = await newWorkspace(server)
    const other = await ws.addMember('member')
    const task = async (title: string) =>
      (await ws.api.post(`${org(ws)}/tasks`, { teamId: ws.teamId, title })).body.id as string
    const star = async (api: Api, id: string) =>
      (await api.post('/v1/me/favorites', { record: { orgId: ws.orgId, type: 'task', id } })).body
        .id as string
    const ids = [] as unknown as [string, string, string]
    for (const title of ['A', 'B', 'C']) ids.push(await star(ws.api, await task(title)))
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `/v1/me/favorites/${id}/move`,
      read: async () => data(await ws.api.get('/v1/me/favorites')),
      positionIn: (body) => body.position,
      // Another person's favorites are another list.
      foreign: await star(other.api, await task('Theirs')),
      event: null,
    }
  },
  'me.dailyPlan.items.move': async (server) => {
    const ws = await newWorkspace(server)
    const day = '2030-05-06'
    const add = async (date: string, text: string) =>
      (await ws.api.post(`/v1/me/daily-plan/${date}/items`, { text })).body.id as string
    const ids = [await add(day, 'A'), await add(day, 'B'), await add(day, 'C')] as [string, string, string]
    return {
      api: ws.api,
      orgId: ws.orgId,
      ids,
      movePath: (id) => `/v1/me/daily-plan/items/${id}/move`,
      read: async () => (await ws.api.get(`/v1/me/daily-plan?from=${day}&to=${day}`)).body.days[0].items,
      positionIn: (body) => body.position,
      // Another day is another list.
      foreign: await add('2030-05-07', 'Tomorrow'),
      event: null,
    }
  },
}

describeEachDatabase('one move idiom', (db) => {
  let server: Server
  beforeAll(async () => {
    server = await startTestServer(db)
  })
  afterAll(() => server.drop())

  const events = async (orgId: string) =>
    (await server.storage.read((s) => s.events.list(orgId as never, 0, 100_000))).map((e) => e.kind)

  for (const [operation, setup] of Object.entries(CASES)) {
    it(`${operation}: before and after another item, positions contiguous, one event`, async () => {
      const c = await setup(server)
      const [a, b, last] = c.ids
      const order = async () => (await c.read()).map((i) => i.id)
      const untouched = (await order()).filter((id) => !c.ids.includes(id))
      const contiguous = async () => {
        const items = await c.read()
        if (items.every((i) => i.position !== undefined))
          expect(items.map((i) => i.position)).toEqual(items.map((_, index) => index))
      }
      expect((await order()).filter((id) => c.ids.includes(id))).toEqual([a, b, last])

      const before = (await events(c.orgId)).length
      const first = await c.api.post(c.movePath(last), { ...c.body, beforeId: a })
      expect(first.status).toBe(200)
      if (c.positionIn) expect(c.positionIn(first.body, last)).toBe((await order()).indexOf(last))
      expect((await order()).filter((id) => c.ids.includes(id))).toEqual([last, a, b])
      expect((await order()).filter((id) => !c.ids.includes(id))).toEqual(untouched)
      await contiguous()
      const emitted = (await events(c.orgId)).slice(before)
      expect(emitted).toEqual(c.event ? [c.event] : [])

      const back = await c.api.post(c.movePath(last), { ...c.body, afterId: b })
      expect(back.status).toBe(200)
      expect((await order()).filter((id) => c.ids.includes(id))).toEqual([a, b, last])
      if (c.positionIn) expect(c.positionIn(back.body, last)).toBe((await order()).indexOf(last))
      await contiguous()
    })

    it(`${operation}: refuses an anchor of another list, itself, both fields or neither; a no-op emits nothing`, async () => {
      const c = await setup(server)
      const [a, b] = c.ids
      const order = await c.read()
      const quiet = (await events(c.orgId)).length
      for (const field of ['beforeId', 'afterId']) {
        const res = await c.api.post(c.movePath(a), { ...c.body, [field]: c.foreign })
        expect(res, field).toMatchObject({
          status: 422,
          body: { code: 'reference_not_found', errors: [{ pointer: `/body/${field}` }] },
        })
        // Onto itself: the anchor is another item of the list.
        const self = await c.api.post(c.movePath(a), { ...c.body, [field]: a })
        expect(self, field).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
      }
      for (const body of [{ ...c.body, beforeId: b, afterId: b }, { ...c.body }]) {
        const res = await c.api.post(c.movePath(a), body)
        expect(res.status, JSON.stringify(body)).toBe(400)
        expect(res.body.code).toBe('validation_failed')
      }
      // Already just before `b`, and `b` already just after it: nothing changes, nothing is emitted.
      const still = await c.api.post(c.movePath(a), { ...c.body, beforeId: b })
      expect(still.status).toBe(200)
      if (c.positionIn) expect(c.positionIn(still.body, a)).toBe(order.findIndex((i) => i.id === a))
      expect((await c.api.post(c.movePath(b), { ...c.body, afterId: a })).status).toBe(200)
      expect(await c.read()).toEqual(order)
      expect((await events(c.orgId)).length).toBe(quiet)
    })
  }
})

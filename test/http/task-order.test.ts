import type { OrgId, TaskId } from '@workgraph/core'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

type Server = Awaited<ReturnType<typeof startTestServer>>
type Api = TestWorkspace['api']

const RUNS = Number(process.env.TASK_ORDER_RUNS ?? 8)

describeEachDatabase('manual order of tasks (tasks.move, sort=rank)', (db) => {
  let server: Server
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  /** A workspace with `n` tasks in its first state, in creation order, and the column's list query. */
  const column = async (n: number) => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const stateId = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data[0].id as string
    const ids: string[] = []
    for (let i = 0; i < n; i++)
      ids.push((await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: `T${i}`, stateId })).body.id)
    return { ws, base, stateId, ids }
  }
  /** Every task of the list, page by page (`limit` a page) with `sort=rank`. */
  const ranked = async (api: Api, url: string, limit = 200) => {
    const out: string[] = []
    let cursor: string | null = null
    do {
      const res: { status: number; body: any } = await api.get(
        `${url}&sort=rank&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`,
      )
      expect(res.status).toBe(200)
      out.push(...res.body.data.map((t: { id: string }) => t.id))
      cursor = res.body.nextCursor
    } while (cursor)
    return out
  }
  const ranksOf = (orgId: string, ids: string[]) =>
    server.storage.read((s) => s.taskRanks.ranksOf(orgId as OrgId, 'board', ids as TaskId[]))
  const events = async (orgId: string) =>
    (await server.storage.read((s) => s.events.list(orgId as OrgId, 0, 100_000))).map((e) => e.kind)

  it('pages a ranked list exactly after any sequence of moves, as a model list says (property)', async () => {
    const N = 6
    const { ws, base, stateId, ids } = await column(N)
    const model = [...ids]
    const move = fc.record({
      task: fc.integer({ min: 0, max: N - 1 }),
      anchor: fc.integer({ min: 0, max: N - 1 }),
      before: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(move, { maxLength: 10 }),
        fc.integer({ min: 1, max: 4 }),
        async (moves, limit) => {
          for (const m of moves) {
            const [task, anchor] = [ids[m.task]!, ids[m.anchor]!]
            const side = m.before ? 'beforeId' : 'afterId'
            const res = await ws.api.post(`${base}/tasks/${task}/move`, { list: 'board', [side]: anchor })
            if (task === anchor) {
              expect(res.status).toBe(422)
              continue
            }
            expect(res.status).toBe(200)
            model.splice(model.indexOf(task), 1)
            model.splice(model.indexOf(anchor) + (m.before ? 0 : 1), 0, task)
          }
          expect(await ranked(ws.api, `${base}/tasks?stateId=${stateId}`, limit)).toEqual(model)
        },
      ),
      { numRuns: RUNS },
    )
  })

  it('keeps ranks distinct under parallel moves and creates, and the list pages every task once', async () => {
    const { ws, base, stateId, ids } = await column(10)
    const [first, ...rest] = ids
    // Every move aims at the same gap: without the list's lock, they would all take the same rank.
    const moves = await Promise.all(
      rest.map((id, i) =>
        ws.api.post(`${base}/tasks/${id}/move`, { list: 'board', [i % 2 ? 'beforeId' : 'afterId']: first }),
      ),
    )
    expect(moves.map((r) => r.status)).toEqual(rest.map(() => 200))
    const created = await Promise.all(
      [0, 1, 2, 3, 4, 5].map(
        async (i) =>
          (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: `New ${i}`, stateId })).body
            .id as string,
      ),
    )
    const all = [...ids, ...created]
    const ranks = [...(await ranksOf(ws.orgId, all)).values()]
    expect(new Set(ranks).size).toBe(all.length)
    const listed = await ranked(ws.api, `${base}/tasks?stateId=${stateId}`, 3)
    expect([...listed].sort()).toEqual([...all].sort())
    // The order is the ranks' order, and the new tasks came last.
    const byRank = [...(await ranksOf(ws.orgId, all)).entries()].sort((a, b) => (a[1]! < b[1]! ? -1 : 1))
    expect(listed).toEqual(byRank.map(([id]) => id))
    expect(new Set(listed.slice(-created.length))).toEqual(new Set(created))
    // Neighbours stay distinct: a move between any two of them still finds a rank between.
    for (const [i, id] of listed.slice(0, 4).entries()) {
      const res = await ws.api.post(`${base}/tasks/${listed.at(-1 - i)}/move`, { list: 'board', afterId: id })
      expect(res.status).toBe(200)
    }
  })

  it('puts a task arriving in another column, project or cycle last there, and ranks each list on its own', async () => {
    const { ws, base, stateId, ids } = await column(3)
    const states = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data
    const other = states[1].id as string
    const project = (await ws.api.post(`${base}/projects`, { name: 'P', teamIds: [ws.teamId] })).body.id
    const inProject: string[] = []
    for (const i of [0, 1])
      inProject.push(
        (
          await ws.api.post(`${base}/tasks`, {
            teamId: ws.teamId,
            title: `P${i}`,
            stateId: other,
            projectId: project,
          })
        ).body.id,
      )
    // Into the other column and the project: last in both.
    await ws.api.patch(`${base}/tasks/${ids[0]}`, { stateId: other, projectId: project })
    expect(await ranked(ws.api, `${base}/tasks?stateId=${other}`)).toEqual([...inProject, ids[0]])
    expect(await ranked(ws.api, `${base}/tasks?projectId=${project}`)).toEqual([...inProject, ids[0]])
    // A move in the project leaves the board column as it was.
    await ws.api.post(`${base}/tasks/${ids[0]}/move`, { list: 'project', beforeId: inProject[0] })
    expect(await ranked(ws.api, `${base}/tasks?projectId=${project}`)).toEqual([ids[0], ...inProject])
    expect(await ranked(ws.api, `${base}/tasks?stateId=${other}`)).toEqual([...inProject, ids[0]])
    expect(await ranked(ws.api, `${base}/tasks?stateId=${stateId}`)).toEqual(ids.slice(1))
    // `projectId` names the list when several filters could.
    expect(await ranked(ws.api, `${base}/tasks?projectId=${project}&stateId=${other}`)).toEqual([
      ids[0],
      ...inProject,
    ])
  })

  it('refuses what is not a move in a list: no list named by the filters, no project, an archived task', async () => {
    const { ws, base, ids } = await column(2)
    const noList = await ws.api.get(`${base}/tasks?sort=rank`)
    expect(noList).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/query/sort' }] },
    })
    const outside = await ws.api.post(`${base}/tasks/${ids[0]}/move`, { list: 'project', afterId: ids[1] })
    expect(outside).toMatchObject({
      status: 422,
      body: { code: 'rule_violated', errors: [{ pointer: '/body/list' }] },
    })
    const bad = await ws.api.post(`${base}/tasks/${ids[0]}/move`, { list: 'shelf', afterId: ids[1] })
    expect(bad.status).toBe(400)
    await ws.api.post(`${base}/tasks/${ids[1]}/archive`)
    const onArchived = await ws.api.post(`${base}/tasks/${ids[0]}/move`, { list: 'board', afterId: ids[1] })
    expect(onArchived).toMatchObject({
      status: 422,
      body: { code: 'reference_not_found', errors: [{ pointer: '/body/afterId' }] },
    })
    const archived = await ws.api.post(`${base}/tasks/${ids[1]}/move`, { list: 'board', beforeId: ids[0] })
    expect(archived).toMatchObject({ status: 409, body: { code: 'archived' } })
  })

  it('neither needs nor reveals tasks hidden from the mover: they keep their places', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const stateId = (await ws.api.get(`${base}/teams/${ws.teamId}/states`)).body.data[0].id as string
    const project = (await ws.api.post(`${base}/projects`, { name: 'Shared', teamIds: [ws.teamId] })).body.id
    const guest = await ws.addMember('guest')
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'project',
      containerId: project,
      capability: 'contribute',
    })
    const task = async (title: string, shared: boolean) =>
      (
        await ws.api.post(`${base}/tasks`, {
          teamId: ws.teamId,
          title,
          stateId,
          ...(shared ? { projectId: project } : {}),
        })
      ).body.id as string
    const [a, hidden, b, c] = [
      await task('A', true),
      await task('H', false),
      await task('B', true),
      await task('C', true),
    ]
    const list = `${base}/tasks?stateId=${stateId}`
    expect(await ranked(guest.api, list)).toEqual([a, b, c])
    // The hidden task is no anchor for the guest, as one that does not exist.
    const onHidden = await guest.api.post(`${base}/tasks/${c}/move`, { list: 'board', afterId: hidden })
    expect(onHidden).toMatchObject({ status: 422, body: { code: 'reference_not_found' } })
    // B already follows A as the guest sees it: nothing changes, nothing is emitted.
    const quiet = (await events(ws.orgId)).length
    expect((await guest.api.post(`${base}/tasks/${b}/move`, { list: 'board', afterId: a })).status).toBe(200)
    expect(await ranked(ws.api, list)).toEqual([a, hidden, b, c])
    expect((await events(ws.orgId)).length).toBe(quiet)
    // C after A: the guest sees A, C, B; the hidden task stays between A and B.
    const moved = await guest.api.post(`${base}/tasks/${c}/move`, { list: 'board', afterId: a })
    expect(moved.status).toBe(200)
    expect(await ranked(guest.api, list)).toEqual([a, c, b])
    expect(await ranked(ws.api, list)).toEqual([a, c, hidden, b])
    expect((await events(ws.orgId)).slice(quiet)).toEqual(['task.moved'])
  })
})

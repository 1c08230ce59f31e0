import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

const PRIORITY_RANK: Record<string, number> = { urgent: 1, high: 2, medium: 3, low: 4, none: 5 }

describeEachDatabase('task search and filters', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
  })
  afterAll(() => server.drop())

  /** Every page of a list, following nextCursor. */
  async function walk(api: any, path: string, limit: number): Promise<any[]> {
    const rows: any[] = []
    let cursor: string | null = null
    const join = path.includes('?') ? '&' : '?'
    for (let guard = 0; guard < 200; guard++) {
      const res: any = await api.get(`${path}${join}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      expect(res.body.data.length).toBeLessThanOrEqual(limit)
      rows.push(...res.body.data)
      cursor = res.body.nextCursor
      if (!cursor) return rows
    }
    throw new Error('too many pages')
  }

  it('finds tasks whose words begin with every word of the query, in title or description, case-insensitively', async () => {
    const ws = await newWorkspace(server)
    const tasks = `/v1/orgs/${ws.orgId}/tasks`
    const make = (title: string, description?: string) =>
      ws.api.post(tasks, { teamId: ws.teamId, title, ...(description ? { description } : {}) })
    await make('Fix login redirect', 'Users land on a blank page')
    await make('Login page copy', 'Polish the wording')
    await make('Billing export', 'CSV export of invoices after LOGIN')
    await make('100% coverage', 'of the parser_core module')
    const titles = async (q: string) =>
      (await ws.api.get(`${tasks}?q=${encodeURIComponent(q)}&sort=createdAt`)).body.data.map(
        (t: any) => t.title,
      )
    expect(await titles('login')).toEqual(['Fix login redirect', 'Login page copy', 'Billing export'])
    expect(await titles('LOGIN page')).toEqual(['Fix login redirect', 'Login page copy'])
    expect(await titles('  export   csv ')).toEqual(['Billing export'])
    // Words are split on anything but letters and digits, and each matches as a word prefix through
    // the full-text index: no LIKE wildcards, no match inside a word.
    expect(await titles('100%')).toEqual(['100% coverage'])
    expect(await titles('pars cor')).toEqual(['100% coverage'])
    expect(await titles('redir')).toEqual(['Fix login redirect'])
    expect(await titles('edirect')).toEqual([])
    // Text without a single word matches nothing (a blank query is no filter).
    expect(await titles('%')).toEqual([])
    expect(await titles('nothing-matches-this')).toEqual([])
    const tooMany = await ws.api.get(`${tasks}?q=${encodeURIComponent('a b c d e f g h i')}`)
    expect(tooMany.status).toBe(422)
    expect(tooMany.body.errors[0].pointer).toBe('/query/q')
  })

  it('never shows a task of a team the reader cannot view, even when it matches', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const secret = await ws.api.post(`${base}/teams`, { name: 'Secret', key: 'SEC' })
    await ws.api.post(`${base}/tasks`, { teamId: secret.body.id, title: 'Launch plan' })
    await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title: 'Launch checklist' })
    const guest = await ws.addMember('guest')
    await ws.api.post(`${base}/grants`, {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
    const seen = await guest.api.get(`${base}/tasks?q=launch`)
    expect(seen.body.data.map((t: any) => t.title)).toEqual(['Launch checklist'])
  })

  it('combines filters: label, parent, blocked, cycle, dates, priority and state category', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const make = async (body: Record<string, unknown>) =>
      (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, ...body })).body
    const parent = await make({ title: 'Epic', priority: 'high', dueDate: '2031-03-01' })
    const child = await make({
      title: 'Child',
      parentId: parent.id,
      dueDate: '2031-02-01',
      priority: 'urgent',
    })
    const blocker = await make({ title: 'Blocker', stateId: ws.states['In Progress']!.id })
    const blocked = await make({ title: 'Blocked', priority: 'low' })
    await ws.api.put(`${base}/tasks/${blocked.id}/blockers/${blocker.id}`)
    const label = (await ws.api.post(`${base}/labels`, { name: 'Bug' })).body
    await ws.api.put(`${base}/tasks/${child.id}/labels/${label.id}`)
    await ws.api.put(`${base}/tasks/${blocked.id}/labels/${label.id}`)
    const cycle = (
      await ws.api.post(`${base}/teams/${ws.teamId}/cycles`, {
        startsAt: '2031-01-06T00:00:00.000Z',
        endsAt: '2031-01-20T00:00:00.000Z',
      })
    ).body
    await ws.api.post(`${base}/tasks/batch-update`, {
      items: [child.id, blocker.id].map((id) => ({ id, cycleId: cycle.id })),
    })

    const titles = async (query: string) =>
      (await ws.api.get(`${base}/tasks?sort=createdAt&${query}`)).body.data.map((t: any) => t.title)
    expect(await titles(`labelId=${label.id}`)).toEqual(['Child', 'Blocked'])
    expect(await titles(`parentId=${parent.id}`)).toEqual(['Child'])
    expect(await titles('parentId=none')).toEqual(['Epic', 'Blocker', 'Blocked'])
    expect(await titles('blocked=true')).toEqual(['Blocked'])
    expect(await titles('blocked=false')).toEqual(['Epic', 'Child', 'Blocker'])
    expect(await titles(`cycleId=${cycle.id}`)).toEqual(['Child', 'Blocker'])
    expect(await titles('cycleId=none')).toEqual(['Epic', 'Blocked'])
    expect(await titles('dueAfter=2031-02-01&dueBefore=2031-02-28')).toEqual(['Child'])
    expect(await titles('dueBefore=2031-12-31')).toEqual(['Epic', 'Child'])
    expect(await titles(`labelId=${label.id}&blocked=false`)).toEqual(['Child'])
    expect(await titles(`labelId=${label.id}&cycleId=none&priority=low`)).toEqual(['Blocked'])
    expect(await titles('stateCategory=started,completed')).toEqual(['Blocker'])
    const everything = (await ws.api.get(`${base}/tasks?sort=createdAt`)).body.data
    const created = everything.find((t: any) => t.id === blocker.id).createdAt
    const names = (keep: (t: any) => boolean) => everything.filter(keep).map((t: any) => t.title)
    expect(await titles(`createdAfter=${encodeURIComponent(created)}`)).toEqual(
      names((t) => t.createdAt >= created),
    )
    expect(await titles(`createdBefore=${encodeURIComponent(created)}`)).toEqual(
      names((t) => t.createdAt < created),
    )
    expect(await titles('createdAfter=2999-01-01T00:00:00Z')).toEqual([])
    expect(await titles('updatedBefore=2000-01-01T00:00:00Z')).toEqual([])

    // Priority: urgent first, none last; due date: undated last in both directions.
    const sorted = async (sort: string) =>
      (await ws.api.get(`${base}/tasks?sort=${sort}`)).body.data.map((t: any) => t.title)
    expect(await sorted('priority')).toEqual(['Child', 'Epic', 'Blocked', 'Blocker'])
    expect(await sorted('-priority')).toEqual(['Blocker', 'Blocked', 'Epic', 'Child'])
    expect((await sorted('dueDate')).slice(0, 2)).toEqual(['Child', 'Epic'])
    expect((await sorted('-dueDate')).slice(0, 2)).toEqual(['Epic', 'Child'])
  })

  it('pages through any filter and sort with every matching task exactly once, in order (property)', async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const words = ['alpha', 'beta', 'gamma']
    const priorities = ['none', 'urgent', 'high', 'medium', 'low']
    const items = Array.from({ length: 40 }, (_, i) => ({
      teamId: ws.teamId,
      title: `${words[i % 3]} task ${i}`,
      priority: priorities[i % 5],
      ...(i % 4 === 0 ? {} : { dueDate: `2031-0${1 + (i % 3)}-1${i % 7}` }),
      ...(i % 6 === 0 ? { stateId: ws.states.Done!.id } : {}),
    }))
    const all = (await ws.api.post(`${base}/tasks/batch-create`, { items })).body.data as any[]
    expect(all).toHaveLength(40)

    const sortValue = (t: any, sort: string) => {
      const key = sort.replace('-', '')
      if (key === 'priority') return PRIORITY_RANK[t.priority]!
      if (key === 'dueDate') return t.dueDate ?? (sort.startsWith('-') ? '0000-01-01' : '9999-12-31')
      return t[key]
    }
    const compare = (a: any, b: any, sort: string) => {
      const [x, y] = [sortValue(a, sort), sortValue(b, sort)]
      const c = x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0
      return sort.startsWith('-') ? -c : c
    }

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 15 }),
        fc.constantFrom('createdAt', '-createdAt', 'priority', '-priority', 'dueDate', '-dueDate'),
        fc.option(fc.constantFrom(...words), { nil: undefined }),
        fc.option(fc.constantFrom('started,backlog', 'completed'), { nil: undefined }),
        fc.option(fc.constantFrom('2031-02-01'), { nil: undefined }),
        async (limit, sort, word, categories, dueAfter) => {
          const query = new URLSearchParams({ sort })
          if (word) query.set('q', word.toUpperCase())
          if (categories) query.set('stateCategory', categories)
          if (dueAfter) query.set('dueAfter', dueAfter)
          const seen = await walk(ws.api, `${base}/tasks?${query}`, limit)
          const expected = all
            .filter((t) => !word || t.title.includes(word))
            .filter((t) => !categories || categories.split(',').includes(t.stateCategory))
            .filter((t) => !dueAfter || (t.dueDate !== null && t.dueDate >= dueAfter))
            .sort((a, b) => compare(a, b, sort))
          expect(seen.map((t) => t.id)).toEqual(expected.map((t) => t.id))
        },
      ),
      { numRuns: 20 },
    )
  })
})

import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { grant } from '../support/grants.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

const RUNS = Number(process.env.FILTER_RUNS ?? 12)
/** The server's clock: relative dates (`P3D`) resolve against it. */
const NOW = '2030-01-15T12:00:00.000Z'
const TODAY = NOW.slice(0, 10)
const WORDS = ['alpha', 'beta', 'gamma', 'delta'] as const
const PRIORITIES = ['none', 'urgent', 'high', 'medium', 'low'] as const
const PRIORITY_RANK: Record<string, number> = { urgent: 1, high: 2, medium: 3, low: 4, none: 5 }
const CATEGORIES = ['triage', 'backlog', 'unstarted', 'started', 'completed', 'canceled'] as const

const day = (offset: number) => {
  const d = new Date(`${TODAY}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + offset)
  return d.toISOString().slice(0, 10)
}

/** A task as the test model holds it, with what the reference needs to evaluate a filter. */
interface ModelTask {
  id: string
  team: number
  teamId: string
  stateCategory: string
  assigneeId: string | null
  priority: string
  estimate: number | null
  dueDate: string | null
  projectId: string | null
  labelIds: string[]
  points: number | null
  title: string
}

interface Fixture {
  ws: TestWorkspace
  teams: string[]
  /** Each team's states, for a task's state by index. */
  states: Array<Array<{ id: string; category: string }>>
  members: string[]
  projectId: string
  labels: string[]
  fieldId: string
  guest: { api: TestWorkspace['api'] }
}

// ---- the reference evaluation: the filter language of docs/filters.md, over the model ----

type Filter = Record<string, any>
const valueTime = (v: string) => (/^-?P/.test(v) ? relativeDay(v) : v)
function relativeDay(v: string): string {
  const n = Number(/(\d+)D$/.exec(v)![1]) * (v.startsWith('-') ? -1 : 1)
  return day(n)
}

/** One comparator over a value that may be missing: every operator must hold. */
function compares(c: Filter, value: string | number | null, norm: (v: any) => any = (v) => v): boolean {
  return Object.entries(c).every(([op, raw]) => {
    if (op === 'null') return raw === (value === null)
    if (op === 'neq') return value === null || value !== norm(raw)
    if (op === 'nin') return value === null || !(raw as any[]).map(norm).includes(value)
    if (value === null) return false
    const v = Array.isArray(raw) ? raw.map(norm) : norm(raw)
    switch (op) {
      case 'eq':
        return value === v
      case 'in':
        return v.includes(value)
      case 'gt':
        return value > v
      case 'gte':
        return value >= v
      case 'lt':
        return value < v
      case 'lte':
        return value <= v
    }
    throw new Error(`operator ${op}`)
  })
}

function matches(f: Filter, t: ModelTask, fieldId: string): boolean {
  return Object.entries(f).every(([key, c]) => {
    switch (key) {
      case 'and':
        return c.every((g: Filter) => matches(g, t, fieldId))
      case 'or':
        return c.some((g: Filter) => matches(g, t, fieldId))
      case 'not':
        return !matches(c, t, fieldId)
      case 'search': {
        const words = t.title.toLowerCase().split(/\s+/)
        return c
          .toLowerCase()
          .split(/[^a-z]+/)
          .filter(Boolean)
          .every((term: string) => words.some((w) => w.startsWith(term)))
      }
      case 'labelIds':
        return Object.entries(c).every(([op, ids]: [string, any]) => {
          if (op === 'null') return ids === (t.labelIds.length === 0)
          if (op === 'in') return ids.some((id: string) => t.labelIds.includes(id))
          if (op === 'nin') return !ids.some((id: string) => t.labelIds.includes(id))
          return ids.every((id: string) => t.labelIds.includes(id))
        })
      case 'field': {
        const { id, ...ops } = c
        expect(id).toBe(fieldId)
        return compares(ops, t.points)
      }
      case 'dueDate':
        return compares(c, t.dueDate, valueTime)
      default:
        return compares(c, (t as any)[key])
    }
  })
}

// ---- random filters over the fixture ----

function filterArb(fx: Fixture): fc.Arbitrary<Filter> {
  const ops = <T>(value: fc.Arbitrary<T>, list: boolean, ordered: boolean, nullable: boolean) => {
    const choices: fc.Arbitrary<Filter>[] = [value.map((v) => ({ eq: v })), value.map((v) => ({ neq: v }))]
    if (list) {
      const many = fc.uniqueArray(value, { minLength: 1, maxLength: 3, selector: (v) => JSON.stringify(v) })
      choices.push(
        many.map((v) => ({ in: v })),
        many.map((v) => ({ nin: v })),
      )
    }
    if (ordered)
      choices.push(
        value.map((v) => ({ gt: v })),
        value.map((v) => ({ lte: v })),
        fc.tuple(value, value).map(([a, b]) => ({ gte: a, lt: b })),
      )
    if (nullable) choices.push(fc.boolean().map((v) => ({ null: v })))
    return fc.oneof(...choices)
  }
  const dueValue = fc.oneof(
    fc.integer({ min: -6, max: 6 }).map((n) => (n < 0 ? `-P${-n}D` : `P${n}D`)),
    fc.integer({ min: -6, max: 6 }).map(day),
  )
  const leaf: fc.Arbitrary<Filter> = fc.oneof(
    ops(fc.constantFrom(...fx.teams), true, false, false).map((c) => ({ teamId: c })),
    ops(fc.constantFrom(...CATEGORIES), true, false, false).map((c) => ({ stateCategory: c })),
    ops(fc.constantFrom(...fx.members), true, false, true).map((c) => ({ assigneeId: c })),
    ops(fc.constantFrom(...PRIORITIES), true, false, false).map((c) => ({ priority: c })),
    ops(fc.integer({ min: 0, max: 5 }), true, true, true).map((c) => ({ estimate: c })),
    ops(dueValue, false, true, true)
      .filter((c) => !('in' in c) && !('nin' in c))
      .map((c) => ({ dueDate: c })),
    ops(fc.constant(fx.projectId), false, false, true).map((c) => ({ projectId: c })),
    fc
      .record(
        {
          in: fc.subarray(fx.labels, { minLength: 1 }),
          nin: fc.subarray(fx.labels, { minLength: 1 }),
          all: fc.subarray(fx.labels, { minLength: 1 }),
          null: fc.boolean(),
        },
        { requiredKeys: [] },
      )
      .filter((c) => Object.keys(c).length > 0)
      .map((c) => ({ labelIds: c })),
    ops(fc.integer({ min: 0, max: 5 }), true, true, true).map((c) => ({ field: { id: fx.fieldId, ...c } })),
    fc.constantFrom('alpha', 'BET', 'gam delta', 'zeta').map((search) => ({ search })),
  )
  const { filter } = fc.letrec<{ filter: Filter }>((tie) => ({
    filter: fc.oneof(
      { depthSize: 'small', maxDepth: 3, withCrossShrink: true },
      leaf,
      fc.tuple(leaf, leaf).map(([a, b]) => ({ ...a, ...b })),
      fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map((and) => ({ and })),
      fc.array(tie('filter'), { minLength: 1, maxLength: 3 }).map((or) => ({ or })),
      tie('filter').map((not) => ({ not })),
    ),
  }))
  return filter
}

const taskArb = (fx: Fixture) =>
  fc.record({
    team: fc.integer({ min: 0, max: 1 }),
    state: fc.nat(),
    assignee: fc.option(fc.constantFrom(...fx.members), { nil: null }),
    priority: fc.constantFrom(...PRIORITIES),
    estimate: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    due: fc.option(fc.integer({ min: -6, max: 6 }), { nil: null }),
    inProject: fc.boolean(),
    labels: fc.subarray(fx.labels),
    points: fc.option(fc.integer({ min: 0, max: 5 }), { nil: null }),
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  })

describeEachDatabase('task filters (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let fx: Fixture
  beforeAll(async () => {
    server = await startTestServer(db, {
      clock: () => new Date(NOW),
      config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } },
    })
    const ws = await newWorkspace(server)
    const api = ws.api
    const base = `/v1/orgs/${ws.orgId}`
    const ops = (await api.post(`${base}/teams`, { name: 'Operations', key: 'OPS' })).body
    const teams = [ws.teamId, ops.id]
    const states = await Promise.all(
      teams.map(async (t) => (await api.get(`${base}/teams/${t}/states`)).body.data),
    )
    const member = await ws.addMember('member')
    const me = (await api.get(`${base}/members?limit=200`)).body.data.find(
      (m: any) => m.userId === ws.owner.user.id,
    )
    const project = (await api.post(`${base}/projects`, { name: 'Launch', teamIds: [ws.teamId] })).body
    expect(project.id).toMatch(/^proj_/)
    const labels: string[] = []
    for (const name of ['bug', 'ui', 'infra'])
      labels.push((await api.post(`${base}/labels`, { name })).body.id)
    const field = (
      await api.post(`${base}/custom-fields`, { name: 'Points', type: 'number', recordKinds: ['task'] })
    ).body
    expect(field.id, JSON.stringify(field)).toMatch(/^cf_/)
    // The guest sees the ENG team and, of OPS, only the tasks in the Launch project.
    const guest = await ws.addMember('guest')
    await grant(ws, guest.memberId, 'view', { type: 'team', id: ws.teamId })
    await grant(ws, guest.memberId, 'view', { type: 'project', id: project.id })
    fx = {
      ws,
      teams,
      states,
      members: [me.id, member.memberId],
      projectId: project.id,
      labels,
      fieldId: field.id,
      guest: { api: guest.api },
    }
  })
  afterAll(() => server.drop())

  /** Every page of `tasks.query`, three at a time. */
  async function all(api: TestWorkspace['api'], body: Record<string, unknown>): Promise<any[]> {
    const rows: any[] = []
    let cursor: string | null = null
    for (let guard = 0; guard < 100; guard++) {
      const res: any = await api.post(`/v1/orgs/${fx.ws.orgId}/tasks/query`, {
        ...body,
        limit: 3,
        ...(cursor ? { cursor } : {}),
      })
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      rows.push(...res.body.data)
      cursor = res.body.nextCursor
      if (!cursor) return rows
    }
    throw new Error('too many pages')
  }

  it('answers exactly what the reference evaluation answers, for the owner and for a guest, page by page', async () => {
    const base = `/v1/orgs/${fx.ws.orgId}`
    await fc.assert(
      fc.asyncProperty(
        fc.array(taskArb(fx), { minLength: 4, maxLength: 12 }),
        fc.array(filterArb(fx), { minLength: 3, maxLength: 3 }),
        fc.constantFrom('-createdAt', 'priority', 'dueDate', '-dueDate'),
        async (specs, filters, sort) => {
          const model: ModelTask[] = []
          try {
            for (const s of specs) {
              const states = fx.states[s.team]!
              const state = states[s.state % states.length]!
              const inProject = s.inProject && fx.projectId
              const body = {
                teamId: fx.teams[s.team],
                title: s.words.join(' '),
                stateId: state.id,
                assigneeId: s.assignee,
                priority: s.priority,
                estimate: s.estimate,
                dueDate: s.due === null ? null : day(s.due),
                projectId: inProject || null,
                labelIds: s.labels,
                fields: s.points === null ? {} : { [fx.fieldId]: s.points },
              }
              const res = await fx.ws.api.post(`${base}/tasks`, body)
              expect(res.status, JSON.stringify(res.body)).toBe(201)
              model.push({
                id: res.body.id,
                team: s.team,
                teamId: fx.teams[s.team]!,
                stateCategory: state.category,
                assigneeId: s.assignee,
                priority: s.priority,
                estimate: s.estimate,
                dueDate: body.dueDate,
                projectId: body.projectId,
                labelIds: s.labels,
                points: s.points,
                title: body.title,
              })
            }
            const guestSees = (t: ModelTask) => t.team === 0 || t.projectId === fx.projectId
            for (const filter of filters) {
              const expected = model.filter((t) => matches(filter, t, fx.fieldId))
              for (const [who, api, sees] of [
                ['owner', fx.ws.api, () => true],
                ['guest', fx.guest.api, guestSees],
              ] as const) {
                const rows = await all(api, { filter, sort })
                const ids = rows.map((r) => r.id)
                expect(new Set(ids).size, 'no task twice across pages').toBe(ids.length)
                expect([...ids].sort(), `${who}: ${JSON.stringify(filter)}`).toEqual(
                  expected
                    .filter(sees)
                    .map((t) => t.id)
                    .sort(),
                )
                const keys = rows.map((r) =>
                  sort === 'priority'
                    ? PRIORITY_RANK[r.priority]
                    : sort.endsWith('dueDate')
                      ? (r.dueDate ?? (sort === 'dueDate' ? '9999-12-31' : '0000-01-01'))
                      : r.createdAt,
                )
                const ordered = sort.startsWith('-') ? [...keys].sort().reverse() : [...keys].sort()
                expect(keys, `${who}: pages in ${sort} order`).toEqual(ordered)
              }
            }
          } finally {
            for (const t of model) await fx.ws.api.delete(`${base}/tasks/${t.id}`)
          }
        },
      ),
      { numRuns: RUNS },
    )
  }, 300_000)
})

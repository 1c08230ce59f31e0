import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, exec, newPerson, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

describeEachDatabase('keyset pagination (property)', (db) => {
  let t: TestEngine
  let principal: Awaited<ReturnType<typeof newPerson>>['principal']
  let orgId: string
  let ids: string[]
  let titles: Map<string, string>
  beforeAll(async () => {
    t = await createTestEngine(db)
    principal = (await newPerson(t.engine)).principal
    orgId = (await exec(t, 'orgs.create', { body: { name: 'Paged' } }, principal)).id
    const teamId = (
      await exec(t, 'teams.create', { params: { orgId }, body: { name: 'P', key: 'P' } }, principal)
    ).id
    ids = []
    titles = new Map()
    for (let i = 0; i < 60; i++) {
      const task = await exec(
        t,
        'tasks.create',
        { params: { orgId }, body: { teamId, title: `t${i}`, priority: i % 3 ? 'none' : 'high' } },
        principal,
      )
      ids.push(task.id)
      titles.set(task.id, task.priority)
    }
    // Some tasks change, so that updatedAt order differs from creation order.
    for (const id of ids.filter((_, i) => i % 7 === 0).reverse()) {
      await exec(t, 'tasks.update', { params: { orgId, taskId: id }, body: { estimate: 2 } }, principal)
    }
  })
  afterAll(() => t.close())

  it('walking pages of any size, sort and filter returns every matching task exactly once, in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 25 }),
        fc.constantFrom('createdAt', '-createdAt', 'updatedAt', '-updatedAt'),
        fc.boolean(),
        async (limit, sort, onlyHigh) => {
          const seen: string[] = []
          const updated: string[] = []
          let cursor: string | undefined
          for (let guard = 0; guard < 100; guard++) {
            const query = {
              limit: String(limit),
              sort,
              ...(onlyHigh ? { priority: 'high' } : {}),
              ...(cursor ? { cursor } : {}),
            }
            const page = (await exec(t, 'tasks.list', { params: { orgId }, query }, principal)) as any
            expect(page.data.length).toBeLessThanOrEqual(limit)
            if (page.nextCursor) expect(page.data.length).toBe(limit)
            seen.push(...page.data.map((task: any) => task.id))
            updated.push(...page.data.map((task: any) => `${task.updatedAt}|${task.id}`))
            if (!page.nextCursor) break
            cursor = page.nextCursor
          }
          const expected = ids.filter((id) => !onlyHigh || titles.get(id) === 'high')
          expect(new Set(seen).size).toBe(seen.length)
          expect([...seen].sort()).toEqual([...expected].sort())
          if (sort === 'createdAt') expect(seen).toEqual(expected)
          if (sort === '-createdAt') expect(seen).toEqual([...expected].reverse())
          const sorted = [...updated].sort()
          if (sort === 'updatedAt') expect(updated).toEqual(sorted)
          if (sort === '-updatedAt') expect(updated).toEqual(sorted.reverse())
        },
      ),
      { numRuns: 25 },
    )
  })
})

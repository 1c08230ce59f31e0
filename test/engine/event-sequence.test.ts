import type { OrgId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, exec, newPerson, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const WRITERS = 8
const WRITES_EACH = 25

describeEachDatabase('event sequence under concurrent writers', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db)
  })
  afterAll(() => t.close())

  it(`${WRITERS} concurrent writers produce a gap-free, strictly increasing sequence per org, seen in order by a live reader`, async () => {
    const owner = await newPerson(t.engine)
    const orgs: OrgId[] = []
    for (const name of ['One', 'Two'])
      orgs.push((await exec(t, 'orgs.create', { body: { name } }, owner.principal)).id)
    const teams = await Promise.all(
      orgs.map(
        async (orgId) =>
          (
            await exec(
              t,
              'teams.create',
              { params: { orgId }, body: { name: 'T', key: 'T' } },
              owner.principal,
            )
          ).id,
      ),
    )

    // A reader tails each org's log while the writers run: it must never see seq n+1 before seq n.
    let writing = true
    const seenByReader = new Map<OrgId, number[]>(orgs.map((o) => [o, []]))
    const reader = (async () => {
      while (writing) {
        for (const orgId of orgs) {
          const seen = seenByReader.get(orgId)!
          const batch = await t.storage.read((s) => s.events.list(orgId, seen.at(-1) ?? 0, 500))
          seen.push(...batch.map((e) => e.seq))
        }
        await new Promise((r) => setTimeout(r, 2))
      }
    })()

    await Promise.all(
      Array.from({ length: WRITERS }, async (_, w) => {
        for (let i = 0; i < WRITES_EACH; i++) {
          const k = (w + i) % orgs.length
          await exec(
            t,
            'tasks.create',
            { params: { orgId: orgs[k] }, body: { teamId: teams[k], title: `w${w}-${i}` } },
            owner.principal,
          )
        }
      }),
    )
    writing = false
    await reader

    for (const orgId of orgs) {
      const events = await t.storage.read((s) => s.events.list(orgId, 0, 10_000))
      const seqs = events.map((e) => e.seq)
      expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1))
      const seen = seenByReader.get(orgId)!
      const rest = await t.storage.read((s) => s.events.list(orgId, seen.at(-1) ?? 0, 10_000))
      expect([...seen, ...rest.map((e) => e.seq)]).toEqual(seqs)
    }
    const tasks = orgs.map((orgId) => t.storage.read((s) => s.events.list(orgId, 0, 10_000)))
    const created = (await Promise.all(tasks)).flat().filter((e) => e.kind === 'task.created')
    expect(created).toHaveLength(WRITERS * WRITES_EACH)
  })
})

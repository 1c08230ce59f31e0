import { type NewEvent, newId, type OrgId } from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { eventsInsert } from '../../adapters/kysely/src/kernel/event-insert.ts'
import { createTestEngine, insertBareOrg, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/**
 * An append of many events in one call (a batch, a bulk load): each gets the next sequence in the
 * order given, and the org's counter is read once per statement. On SQLite it was read once per
 * event (a subquery in each row), which made an append quadratic in its events: 2,000 took a second,
 * and seeding 20 workspaces of 10,000 tasks ran for hours (docs/performance-log.md).
 */
describeEachDatabase('events.append in bulk', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db)
  })
  afterAll(() => t.close())

  const event = (n: number): NewEvent => ({
    id: newId('EventId'),
    kind: 'test.happened',
    actorId: null,
    resourceType: 'test',
    resourceId: `r${n}`,
    teamId: null,
    recipientId: null,
    data: { n },
    createdAt: new Date().toISOString(),
  })
  const newOrg = () => insertBareOrg(t.storage)
  const listAll = async (orgId: OrgId) => {
    const all = []
    for (let after = 0; ; ) {
      const page = await t.storage.read((s) => s.events.list(orgId, after, 1000))
      if (page.length === 0) return all
      all.push(...page)
      after = page.at(-1)!.seq
    }
  }

  it('gives every event of a large append the next sequence, in the order given', async () => {
    const orgId = await newOrg()
    const one = await t.storage.transaction((s) => s.events.append(orgId, [event(0)]))
    // Both sides of the size up to which a statement's shape is kept compiled, then a bulk.
    const sizes = [64, 65, 3_000]
    const appended = []
    for (const size of sizes) {
      const events = Array.from({ length: size }, (_, i) => event(appended.length + i + 1))
      const stored = await t.storage.transaction((s) => s.events.append(orgId, events))
      expect(stored.map((e) => e.id)).toEqual(events.map((e) => e.id))
      appended.push(...stored)
    }
    const last = await t.storage.transaction((s) => s.events.append(orgId, [event(-1)]))
    const total = 1 + 64 + 65 + 3_000 + 1
    expect([...one, ...appended, ...last].map((e) => e.seq)).toEqual(
      Array.from({ length: total }, (_, i) => i + 1),
    )
    const listed = await listAll(orgId)
    expect(listed.map((e) => e.seq)).toEqual(Array.from({ length: total }, (_, i) => i + 1))
    expect(listed.slice(1, -1).map((e) => e.data)).toEqual(appended.map((_, i) => ({ n: i + 1 })))
    expect(await t.storage.read((s) => s.events.bounds(orgId))).toEqual({ oldest: 1, last: total })
  })

  it("reads the org's counter once per append, whatever the number of events", async () => {
    const orgId = await newOrg()
    for (const size of [1, 3, 64, 65, 500]) {
      const events = Array.from({ length: size }, (_, i) => event(i))
      const { sql } = eventsInsert(t.storage.db, t.storage.dialect, orgId, events)
      expect(sql.match(/org_event_counters/g), `${size} events`).toHaveLength(1)
    }
  })
})

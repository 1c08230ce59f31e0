import { newId, type OrgId } from '@workgraph/core'
import type { SeededStatus } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, insertBareOrg, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

const CATEGORIES = ['backlog', 'planned', 'started', 'paused', 'completed', 'canceled'] as const

/** `projectStatuses.seed`: each seed at most once per org, whoever races, checked in the table itself. */
describeEachDatabase('project status seeding', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db)
  })
  afterAll(() => t.close())

  const defaults = (orgId: OrgId, at: string): SeededStatus[] =>
    CATEGORIES.map((category, position) => ({
      id: newId('ProjectStatusId'),
      orgId,
      name: category[0]!.toUpperCase() + category.slice(1),
      category,
      color: '#95a2b3',
      description: null,
      position,
      createdAt: at,
      updatedAt: at,
      archivedAt: null,
      seed: category,
    }))

  it('inserts the default set once under concurrent transactions, and is a no-op after', async () => {
    const orgId = await insertBareOrg(t.storage)
    const at = new Date().toISOString()
    expect(await t.storage.read((s) => s.projectStatuses.isSeeded(orgId))).toBe(false)
    await Promise.all(
      Array.from({ length: 4 }, () =>
        t.storage.transaction((s) => s.projectStatuses.seed(orgId, defaults(orgId, at))),
      ),
    )
    await t.storage.read((s) => s.projectStatuses.seed(orgId, defaults(orgId, at)))
    const rows = await t.storage.db
      .selectFrom('projectStatuses')
      .select(['seed', 'position'])
      .where('orgId', '=', orgId)
      .orderBy('position')
      .execute()
    expect(rows.map((r) => r.seed)).toEqual([...CATEGORIES])
    expect(await t.storage.read((s) => s.projectStatuses.isSeeded(orgId))).toBe(true)
  })
})

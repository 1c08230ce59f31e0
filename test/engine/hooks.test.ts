import { afterAll, beforeAll, expect, it } from 'vitest'
import { resolveActor } from '../../packages/core/src/access/actor.ts'
import { loadProfile } from '../../packages/core/src/access/profile.ts'
import { CATALOGUE } from '../../packages/core/src/catalogue.ts'
import { assembleCatalogue } from '../../packages/core/src/kernel/group.ts'
import { createEngineCore, type EngineCore } from '../../packages/core/src/kernel/pipeline/engine.ts'
import { createTestEngine, exec, newPerson, type TestEngine, type TestPerson } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

// Hooks (packages/core/src/kernel/hooks.ts) are answered per engine, from the groups it is composed
// of: an engine whose cycles group fills no hook (as one composed without that group) says so when a
// task names a cycle, while a full engine over the same database, in the same process, still finds it.
describeEachDatabase('hooks are per engine', (db) => {
  let t: TestEngine
  let partial: EngineCore
  let owner: TestPerson
  let base: { orgId: string; teamId: string; cycleId: string }
  beforeAll(async () => {
    t = await createTestEngine(db)
    // The whole catalogue but the hook the cycles group fills: removing the group itself would leave
    // insights with operations of its tag.
    const withoutCycles = assembleCatalogue(
      CATALOGUE.groups.map((g) => (g.name === 'cycles' ? { ...g, fills: {} } : g)),
    )
    partial = await createEngineCore(
      { storage: t.storage, config: { baseUrl: 'http://workgraph.test' } },
      {
        catalogue: withoutCycles,
        resolveActor,
        findTenant: (store, orgId) => store.orgs.get(orgId),
        loadProfile,
        accessTokenIsLive: async () => true,
      },
    )
    owner = await newPerson(t.engine)
    const orgId = (await exec(t, 'orgs.create', { body: { name: 'Hooks' } }, owner.principal)).id
    const teamId = (
      await exec(t, 'teams.create', { params: { orgId }, body: { name: 'T', key: 'T' } }, owner.principal)
    ).id
    const cycle = await exec(
      t,
      'cycles.create',
      {
        params: { orgId, teamId },
        body: { startsAt: '2031-01-06T00:00:00.000Z', endsAt: '2031-01-20T00:00:00.000Z' },
      },
      owner.principal,
    )
    base = { orgId, teamId, cycleId: cycle.id }
  })
  afterAll(() => t.close())

  const createInCycle = (engine: { execute: EngineCore['execute'] }) =>
    engine.execute(
      'tasks.create',
      {
        params: { orgId: base.orgId },
        query: {},
        body: { teamId: base.teamId, title: 'Planned', cycleId: base.cycleId },
      },
      owner.principal,
    )

  it('an engine whose catalogue does not fill a hook names the hook instead of answering "not found"', async () => {
    await expect(createInCycle(partial)).rejects.toThrow(
      "No group of this engine's catalogue fills the hook tasks.cycle",
    )
  })

  it('a full engine in the same process still reads the cycle through its own hook', async () => {
    const created = await createInCycle(t.engine)
    expect(created.status).toBe(201)
    expect((created.body as { cycleId: string }).cycleId).toBe(base.cycleId)
  })

  it('a catalogue refuses a hook two groups fill', () => {
    const cycles = CATALOGUE.groups.find((g) => g.name === 'cycles')!
    const twin = { name: 'twin', tags: [], operations: [], fills: cycles.fills }
    expect(() => assembleCatalogue([...CATALOGUE.groups, twin])).toThrow(
      'Resource group twin: the hook tasks.cycle is filled twice',
    )
  })
})

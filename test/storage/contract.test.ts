import {
  type NewEvent,
  newId,
  type OrgId,
  type StateId,
  type TeamId,
  UNSCOPED,
  type UserId,
} from '@workgraph/core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEngine, type TestEngine } from '../support/fixtures.ts'
import { describeEachDatabase } from '../support/matrix.ts'

/** The storage interface's promises, checked by reading the database directly where a write is involved. */
describeEachDatabase('storage contract', (db) => {
  let t: TestEngine
  beforeAll(async () => {
    t = await createTestEngine(db)
  })
  afterAll(() => t.close())

  const now = () => new Date().toISOString()

  async function seedOrg(): Promise<{
    orgId: OrgId
    userId: UserId
    teamId: TeamId
    stateId: StateId
    memberId: ReturnType<typeof newId<'MemberId'>>
  }> {
    const userId = newId('UserId')
    const orgId = newId('OrgId')
    const teamId = newId('TeamId')
    const stateId = newId('StateId')
    const memberId = newId('MemberId')
    const at = now()
    await t.storage.transaction(async (s) => {
      await s.users.insert({ id: userId, email: `${userId}@Example.com`, name: 'U', createdAt: at })
      await s.orgs.insert({
        id: orgId,
        name: 'O',
        slug: orgId.toLowerCase().replace('_', '-'),
        createdAt: at,
        updatedAt: at,
        archivedAt: null,
      })
      await s.members.insert({
        id: memberId,
        orgId,
        userId,
        kind: 'person',
        role: 'owner',
        status: 'active',
        createdAt: at,
        updatedAt: at,
      })
      await s.teams.insert({
        id: teamId,
        orgId,
        name: 'T',
        key: 'T',
        description: null,
        createdAt: at,
        updatedAt: at,
        archivedAt: null,
      })
      await s.states.insert({
        id: stateId,
        orgId,
        teamId,
        name: 'Todo',
        category: 'unstarted',
        color: '#000000',
        description: null,
        position: 0,
        createdAt: at,
        updatedAt: at,
        archivedAt: null,
      })
    })
    return { orgId, userId, teamId, stateId, memberId }
  }

  it('stores emails lower-case and finds users case-insensitively', async () => {
    const { userId } = await seedOrg()
    const row = await t.storage.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', userId)
      .executeTakeFirstOrThrow()
    expect(row.email).toBe(`${userId}@example.com`.toLowerCase())
    expect((await t.storage.read((s) => s.users.getByEmail(`${userId}@EXAMPLE.com`)))?.id).toBe(userId)
  })

  it('rolls back every write of a transaction that throws', async () => {
    const orgId = newId('OrgId')
    await expect(
      t.storage.transaction(async (s) => {
        await s.orgs.insert({
          id: orgId,
          name: 'Gone',
          slug: `gone-${Date.now()}`,
          createdAt: now(),
          updatedAt: now(),
          archivedAt: null,
        })
        throw new Error('boom')
      }),
    ).rejects.toThrow('boom')
    expect(
      await t.storage.db.selectFrom('orgs').select('id').where('id', '=', orgId).executeTakeFirst(),
    ).toBeUndefined()
    expect(
      await t.storage.db
        .selectFrom('orgEventCounters')
        .select('orgId')
        .where('orgId', '=', orgId)
        .executeTakeFirst(),
    ).toBeUndefined()
  })

  it('hands out distinct, consecutive task numbers under concurrent transactions', async () => {
    const { orgId, teamId } = await seedOrg()
    const numbers = await Promise.all(
      Array.from({ length: 12 }, () => t.storage.transaction((s) => s.teams.nextTaskNumber(orgId, teamId))),
    )
    expect([...numbers].sort((a, b) => a - b)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1))
  })

  it('appends events with gap-free sequences starting at 1, per org', async () => {
    const a = await seedOrg()
    const b = await seedOrg()
    const event = (): NewEvent => ({
      id: newId('EventId'),
      kind: 'test.happened',
      actorId: null,
      resourceType: 'test',
      resourceId: 'x',
      data: { n: [1, 2] },
      createdAt: now(),
    })
    const first = await t.storage.transaction((s) => s.events.append(a.orgId, [event(), event()]))
    const other = await t.storage.transaction((s) => s.events.append(b.orgId, [event()]))
    const second = await t.storage.transaction((s) => s.events.append(a.orgId, [event()]))
    expect([...first, ...second].map((e) => e.seq)).toEqual([1, 2, 3])
    expect(other.map((e) => e.seq)).toEqual([1])
    const listed = await t.storage.read((s) => s.events.list(a.orgId, 1, 10))
    expect(listed.map((e) => e.seq)).toEqual([2, 3])
    expect(listed[0]!.data).toEqual({ n: [1, 2] })
  })

  it('keeps one idempotency record per key: a second put is refused', async () => {
    const record = {
      principalKey: `p-${Date.now()}`,
      key: 'k',
      operationId: 'tasks.create',
      requestHash: 'h',
      status: 201,
      body: { ok: true, list: [1] },
      etag: null,
      createdAt: now(),
    }
    expect(await t.storage.transaction((s) => s.idempotency.put(record))).toBe(true)
    expect(await t.storage.transaction((s) => s.idempotency.put({ ...record, requestHash: 'other' }))).toBe(
      false,
    )
    const stored = await t.storage.read((s) =>
      s.idempotency.get(record.principalKey, 'k', new Date(Date.now() - 1000).toISOString()),
    )
    expect(stored).toMatchObject({ requestHash: 'h', body: { ok: true, list: [1] } })
    expect(
      await t.storage.read((s) =>
        s.idempotency.get(record.principalKey, 'k', new Date(Date.now() + 1000).toISOString()),
      ),
    ).toBeNull()
  })

  it('lets exactly one of two racing secret inserts win', async () => {
    const name = `race-${Date.now()}`
    const results = await Promise.all(
      ['a', 'b', 'c'].map((value) =>
        t.storage.transaction((s) => s.secrets.insert({ name, value, createdAt: now() })),
      ),
    )
    expect(results.filter(Boolean)).toHaveLength(1)
    expect(await t.storage.read((s) => s.secrets.list(name))).toHaveLength(1)
  })

  it('hides soft-deleted tasks from every read but keeps the row', async () => {
    const { orgId, teamId, stateId, memberId } = await seedOrg()
    const id = newId('TaskId')
    const at = now()
    await t.storage.transaction(async (s) => {
      await s.tasks.insert({
        id,
        orgId,
        teamId,
        number: 1,
        title: 'x',
        description: null,
        stateId,
        assigneeId: null,
        creatorId: memberId,
        priority: 'none',
        estimate: 1.5,
        dueDate: '2027-01-31',
        createdAt: at,
        updatedAt: at,
        startedAt: null,
        completedAt: null,
        canceledAt: null,
        archivedAt: null,
        boardRank: 'a0',
      })
    })
    expect(await t.storage.read((s) => s.tasks.get(orgId, id, UNSCOPED))).toMatchObject({
      key: 'T-1',
      estimate: 1.5,
      dueDate: '2027-01-31',
      stateCategory: 'unstarted',
    })
    await t.storage.transaction((s) => s.tasks.delete(orgId, id, now()))
    expect(await t.storage.read((s) => s.tasks.get(orgId, id, UNSCOPED))).toBeNull()
    expect(
      await t.storage.read((s) =>
        s.tasks.list(
          orgId,
          { archived: null },
          { sort: 'createdAt', direction: 'asc', after: null, limit: 10 },
          UNSCOPED,
        ),
      ),
    ).toEqual([])
    const row = await t.storage.db
      .selectFrom('tasks')
      .select('deletedAt')
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.deletedAt).not.toBeNull()
    expect(await t.storage.read((s) => s.states.countTasks(orgId, stateId))).toBe(0)
  })

  it("never lets one org read another org's records by id", async () => {
    const a = await seedOrg()
    const b = await seedOrg()
    expect(await t.storage.read((s) => s.teams.get(a.orgId, b.teamId))).toBeNull()
    expect(await t.storage.read((s) => s.states.get(a.orgId, b.stateId))).toBeNull()
    expect(await t.storage.read((s) => s.members.get(a.orgId, b.memberId))).toBeNull()
  })

  it('prunes idempotency records older than 24 hours and keeps the others', async () => {
    const base = { operationId: 'tasks.create', requestHash: 'h', status: 201, body: {}, etag: null }
    const principalKey = `prune-${Date.now()}`
    const old = new Date(Date.now() - 25 * 3_600_000).toISOString()
    await t.storage.transaction((s) =>
      s.idempotency.put({ ...base, principalKey, key: 'old', createdAt: old }),
    )
    await t.storage.transaction((s) =>
      s.idempotency.put({ ...base, principalKey, key: 'new', createdAt: now() }),
    )
    const pruned = await t.engine.prune()
    expect(pruned.idempotencyKeys).toBeGreaterThanOrEqual(1)
    const rows = await t.storage.db
      .selectFrom('idempotencyKeys')
      .select('key')
      .where('principalKey', '=', principalKey)
      .execute()
    expect(rows.map((r) => r.key)).toEqual(['new'])
  })

  it('runs transactions that lock the same key one after the other', async () => {
    const order: string[] = []
    const hold = (name: string, ms: number) =>
      t.storage.transaction(async (s) => {
        await s.locks.acquire('contract-lock')
        order.push(`${name}:in`)
        await new Promise((r) => setTimeout(r, ms))
        order.push(`${name}:out`)
      })
    await Promise.all([hold('a', 60), new Promise((r) => setTimeout(r, 10)).then(() => hold('b', 0))])
    expect(order).toEqual(['a:in', 'a:out', 'b:in', 'b:out'])
  })

  it('migrates an already migrated database without change', async () => {
    const { migrateToLatest } = await import('@workgraph/kysely')
    const result = await migrateToLatest(
      t.storage.db,
      t.storage.dialect,
      db.name === 'postgres' ? { schema: await currentSchema() } : {},
    )
    expect(result.results).toEqual([])
  })

  async function currentSchema(): Promise<string> {
    const { sql } = await import('kysely')
    const row = await sql<{ s: string }>`select current_schema() as s`.execute(t.storage.db)
    return row.rows[0]!.s
  }
})

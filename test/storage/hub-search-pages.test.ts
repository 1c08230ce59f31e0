import { HUB_SEARCH_TYPES, type MemberId, type ReadScope, readerFor, type UserId } from '@workgraph/core'
import type { SearchHit } from '@workgraph/core/storage'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { recordStatements, sqlitePlan } from '../support/statements.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/**
 * The hub's search in one workspace ranks and limits its candidates inside the database, then
 * reads only them: its keyset pages must still be exact. Many hits tie on rank (same words, same
 * lengths), the best-ranked ones sit in a team a guest cannot see (so the guest's first candidates
 * are all hidden and further ones must be read), some are archived: for the owner and the guest,
 * every page size walks exactly the one long page, best first, ties by id descending.
 */
describeEachDatabase('hub search pages', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let ws: TestWorkspace
  const visibleToGuest = new Set<string>()
  const everything = new Set<string>()
  const scopes: Array<{ name: string; scope: ReadScope; expected: Set<string> }> = []

  beforeAll(async () => {
    server = await startTestServer(db)
    ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const post = async (path: string, body: unknown) => {
      const res = await ws.api.post(`${base}${path}`, body)
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
      return res.body
    }
    const hidden = (await post('/teams', { name: 'Hidden', key: 'HID' })).id
    // Hidden from the guest and ranked first: the word twice in a short title.
    for (let i = 0; i < 12; i++)
      everything.add((await post('/tasks', { teamId: hidden, title: `launch launch ${i}` })).id)
    for (let i = 0; i < 24; i++) {
      const task = await post('/tasks', {
        teamId: ws.teamId,
        // Equal titles tie; the body alone ranks lower.
        ...(i % 3 === 2
          ? { title: `other ${i % 10}`, description: 'about the launch' }
          : { title: `launch ${i % 10}` }),
      })
      if (i % 8 === 5) {
        expect((await ws.api.post(`${base}/tasks/${task.id}/archive`)).status).toBeLessThan(300)
        continue
      }
      everything.add(task.id)
      visibleToGuest.add(task.id)
      if (i % 4 === 0) {
        const comment = await post(`/tasks/${task.id}/comments`, { body: 'launch went well' })
        everything.add(comment.id)
        visibleToGuest.add(comment.id)
      }
    }
    const guest = await ws.addMember('guest')
    await post('/grants', {
      subjectType: 'member',
      subjectId: guest.memberId,
      containerType: 'team',
      containerId: ws.teamId,
      capability: 'view',
    })
    await server.storage.read(async (s) => {
      for (const [name, memberId, userId, role, expected] of [
        ['owner', null, ws.owner.user.id, 'owner', everything],
        ['guest of one team', guest.memberId, guest.user.id, 'guest', visibleToGuest],
      ] as const) {
        const member = memberId
          ? await s.members.get(ws.orgId, memberId)
          : await s.members.findByUser(ws.orgId, userId as UserId)
        const { scope } = await readerFor(s, {
          id: member!.id as MemberId,
          kind: 'person',
          orgId: ws.orgId,
          role,
          userId: userId as UserId,
          name: member!.name,
        })
        scopes.push({ name, scope, expected })
      }
    })
  }, 120_000)
  afterAll(() => server.drop())

  const search = (scope: ReadScope, limit: number, after: SearchHit | null) =>
    server.storage.read((s) =>
      s.hubReads.search(ws.orgId, ['launch'], HUB_SEARCH_TYPES, scope, {
        sort: 'rank',
        direction: 'desc',
        after: after ? { value: after.rank, id: after.id } : null,
        limit,
      }),
    )

  it('pages of every size concatenate to the one long page, best first, ties by id', async () => {
    for (const { name, scope, expected } of scopes) {
      const long = await search(scope, 200, null)
      expect(new Set(long.map((h) => h.id)), name).toEqual(expected)
      expect(long).toHaveLength(expected.size)
      for (const [i, hit] of long.entries()) {
        const previous = long[i - 1]
        if (previous)
          expect(
            previous.rank > hit.rank || (previous.rank === hit.rank && previous.id > hit.id),
            `${name}: ${previous.id} before ${hit.id}`,
          ).toBe(true)
      }
      // The ranks tie: the order within a rank is the ids'.
      expect(new Set(long.map((h) => h.rank)).size).toBeLessThan(long.length / 2)
      for (const limit of [1, 2, 5]) {
        const walked: string[] = []
        let after: SearchHit | null = null
        for (let guard = 0; guard < 100; guard++) {
          const page: SearchHit[] = await search(scope, limit, after)
          expect(page.length).toBeLessThanOrEqual(limit + 1)
          walked.push(...page.slice(0, limit).map((h) => h.id))
          if (page.length <= limit) break
          after = page[limit - 1]!
        }
        expect(walked, `${name}, pages of ${limit}`).toEqual(long.map((h) => h.id))
      }
    }
  })

  it('reads each candidate by its key, not every row of the workspace', async () => {
    const recorded = await recordStatements(server.storage.db, () => search(scopes[0]!.scope, 5, null))
    const statement = recorded.find((r) => r.sql.includes('"top"'))!
    expect(statement.sql).toContain('"tasks"."id" in (select "top"."id" from "top"')
    // SQLite keeps no statistics: without the key it guessed that `org_id = ?` finds a few rows and
    // read every task and comment of the workspace (10,000 and 1,000 in the hub bench), each looked
    // up among the candidates. Postgres plans from its statistics (a small table is read whole).
    if (db.name !== 'sqlite') return
    const reads = (await sqlitePlan(server.storage.db, statement)).filter((d) =>
      /^(SCAN|SEARCH) (tasks|comments|projects|initiatives|documents|status_updates)\b/.test(d),
    )
    expect(reads.length).toBeGreaterThan(0)
    for (const read of reads) expect(read).toMatch(/\(org_id=\? AND id=\?\)/)
  })
})

/**
 * The hub bench's world, seeded in bulk: one person in `workspaces` workspaces of `tasks` tasks each.
 * What is small (the owners, orgs, teams, a running cycle per team, the person's memberships and
 * grants, a dozen comments that mention the person, the daily plan) goes through the engine, so it
 * is what the engine writes; the bulk (the tasks with their numbers, board and cycle ranks, history,
 * subscribers and dependencies, the comments on them, the `assigned` notifications and every event
 * these would have emitted) is written many rows per statement in one transaction per workspace,
 * by table family: bench/hub-world/tasks.ts, notifications.ts, comments.ts, written by bulk.ts.
 * The database's own triggers and generated columns keep the search index, as for any insert.
 * The notifier's position is moved past the bulk events, as if it had delivered them (its
 * `assigned` notifications are among the bulk rows); it then derives the mentions for real.
 */
import {
  createUser,
  type MemberId,
  newId,
  type OrgId,
  type Principal,
  type RawInput,
  type TeamId,
} from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'
import { bulkOrg } from './hub-world/bulk.ts'
import { HOUR, type HubWorld, PERSON_NAME, type SeedOrg, WORDS } from './hub-world/shared.ts'

export type { HubWorld, SeedComment, SeedOrg, SeedTask } from './hub-world/shared.ts'
export { PERSON_NAME, RARE_WORD, shiftDay, WORDS } from './hub-world/shared.ts'

/** Comments through the engine that mention the person, per workspace (the `mentions` section). */
const MENTIONS = 12

export async function seedHubWorld(
  server: RunningServer,
  workspaces: number,
  tasks: number,
  log: (line: string) => void,
): Promise<HubWorld> {
  const { engine, storage } = server
  const user = await createUser(storage, { email: 'hub@example.com', name: PERSON_NAME })
  const person = await engine.tokens.verifyAccessToken(
    await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] }),
  )
  const now = Date.now()
  const nowIso = new Date(now).toISOString()
  const today = nowIso.slice(0, 10)
  const orgs: SeedOrg[] = []
  const owners: Principal[] = []
  let bulkMs = 0
  for (let o = 0; o < workspaces; o++) {
    const owner = await createUser(storage, { email: `owner${o}@example.com`, name: `Owner ${o}` })
    const ownerPrincipal = await engine.tokens.verifyAccessToken(
      await engine.tokens.issueAccessToken({ userId: owner.id, scopes: ['work:read', 'work:write'] }),
    )
    owners.push(ownerPrincipal)
    const call = callAs(server, ownerPrincipal)
    const org = await call<{ id: OrgId }>('orgs.create', { body: { name: `Org ${o}` } })
    const team = await call<{ id: TeamId }>('teams.create', {
      params: { orgId: org.id },
      body: { name: 'Engineering', key: 'ENG' },
    })
    const cycle = await call<{ id: string }>('cycles.create', {
      params: { orgId: org.id, teamId: team.id },
      body: {
        startsAt: new Date(now - 3 * 24 * HOUR).toISOString(),
        endsAt: new Date(now + 4 * 24 * HOUR).toISOString(),
      },
    })
    const memberId = newId('MemberId') as MemberId
    await storage.transaction((s) =>
      s.members.insert({
        id: memberId,
        orgId: org.id,
        userId: user.id,
        kind: 'person',
        role: o % 3 === 2 ? 'guest' : 'member',
        status: 'active',
        createdAt: nowIso,
        updatedAt: nowIso,
      }),
    )
    // Every third workspace: a guest who sees the one team through a grant.
    if (o % 3 === 2) {
      await call('grants.create', {
        params: { orgId: org.id },
        body: {
          subjectType: 'member',
          subjectId: memberId,
          containerType: 'team',
          containerId: team.id,
          capability: 'view',
        },
      })
    }
    const started = performance.now()
    const seeded = await bulkOrg(server, {
      o,
      orgId: org.id,
      teamId: team.id,
      cycleId: cycle.id,
      ownerMemberId: (await storage.read((s) => s.members.findByUser(org.id, owner.id)))!.id,
      memberId,
      count: tasks,
      now,
      today,
    })
    bulkMs += performance.now() - started
    orgs.push({ orgId: org.id, teamId: team.id, memberId, ...seeded })
  }
  log(`bulk rows written in ${(bulkMs / 1000).toFixed(1)} s`)
  // Through the engine: comments that mention the person (the notifier derives their notifications).
  for (let o = 0; o < orgs.length; o++) {
    const { orgId, tasks: rows, comments } = orgs[o]!
    const call = callAs(server, owners[o]!)
    const open = rows.filter((t) => !t.assigned && !t.archived && !t.completedAt)
    for (let m = 0; m < Math.min(MENTIONS, open.length); m++) {
      const body = `@hubperson can you look at the ${WORDS[m % WORDS.length]} part?`
      const comment = await call<{ id: string }>('tasks.comments.create', {
        params: { orgId, taskId: open[m]!.id },
        body: { body },
      })
      comments.push({ orgId, id: comment.id, body })
    }
  }
  await engine.notify({ onError: (e) => log(`notifier: ${String(e)}`) })
  // The person's plan for today: two of their tasks due today in each workspace, and a note.
  const plan: string[] = []
  const asPerson = callAs(server, person)
  for (const { orgId, tasks: rows } of orgs) {
    const due = rows.filter((t) => t.assigned && t.dueDate === today && !t.completedAt && !t.archived)
    for (const t of due.slice(0, 2)) {
      await asPerson('me.dailyPlan.items.create', {
        params: { date: today },
        body: { task: { orgId, id: t.id } },
      })
      plan.push(`${orgId}/${t.id}`)
    }
  }
  await asPerson('me.dailyPlan.items.create', {
    params: { date: today },
    body: { text: 'Write the weekly notes' },
  })
  return { person, today, orgs, plan }
}

function callAs(server: RunningServer, principal: Principal) {
  return async <T>(id: string, input: RawInput): Promise<T> => {
    const result = await server.engine.execute(id, input, principal)
    if (result.status >= 300) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
    return result.body as T
  }
}

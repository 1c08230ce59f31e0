import {
  CAPABILITIES,
  type Capability,
  DEFAULT_STATES,
  type Engine,
  newId,
  type OrgId,
  type Principal,
  ranksInOrder,
  UNSCOPED,
} from '@workgraph/core'
import type { Store } from '@workgraph/core/storage'
import fc from 'fast-check'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { newPerson } from '../support/fixtures.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { sized } from '../support/tier.ts'

// Random worlds per database: 200 before a release (`pnpm test:deep`), a fresh sample of them in every run.
const WORLDS = sized('PERMISSION_WORLDS', { test: 30, deep: 200 })
const ROLES = ['admin', 'member', 'guest', 'guest'] as const
const BASE: Record<string, Capability | null> = {
  owner: 'manage',
  admin: 'manage',
  member: 'assign',
  guest: null,
}
const rank = (c: Capability | null) => (c ? CAPABILITIES.indexOf(c) : -1)

/**
 * A random world: teams, people with roles, agents, team memberships and grants, projects spanning
 * one or two teams, tasks in those projects, and grants on the projects; programs holding projects,
 * initiatives (each may nest under an earlier one) linking projects and programs, and grants on
 * those programs and initiatives.
 */
const worldArb = fc.record({
  teams: fc.integer({ min: 1, max: 3 }),
  people: fc.array(fc.constantFrom(...ROLES), { minLength: 1, maxLength: 3 }),
  agents: fc.integer({ min: 0, max: 2 }),
  memberships: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 5 }),
  grants: fc.array(
    fc.record({
      subject: fc.nat(),
      subjectIsTeam: fc.boolean(),
      container: fc.nat(),
      onOrg: fc.boolean(),
      capability: fc.constantFrom(...CAPABILITIES),
    }),
    { maxLength: 6 },
  ),
  projects: fc.array(fc.array(fc.nat(), { minLength: 1, maxLength: 2 }), { maxLength: 2 }),
  projectTasks: fc.array(fc.nat(), { maxLength: 3 }),
  projectGrants: fc.array(
    fc.record({
      subject: fc.nat(),
      subjectIsTeam: fc.boolean(),
      project: fc.nat(),
      capability: fc.constantFrom(...CAPABILITIES),
    }),
    { maxLength: 4 },
  ),
  programs: fc.array(fc.array(fc.nat(), { maxLength: 2 }), { maxLength: 2 }),
  initiatives: fc.array(
    fc.record({
      parent: fc.option(fc.nat(), { nil: null }),
      projects: fc.array(fc.nat(), { maxLength: 2 }),
      programs: fc.array(fc.nat(), { maxLength: 2 }),
    }),
    { maxLength: 3 },
  ),
  containerGrants: fc.array(
    fc.record({
      subject: fc.nat(),
      subjectIsTeam: fc.boolean(),
      onInitiative: fc.boolean(),
      container: fc.nat(),
      capability: fc.constantFrom(...CAPABILITIES),
    }),
    { maxLength: 3 },
  ),
})
type WorldSpec = typeof worldArb extends fc.Arbitrary<infer T> ? T : never

interface Actor {
  id: string
  role: string | null
  principal?: Principal
  token?: string
}

/**
 * The reference model: the highest of the role's base and every grant reaching the actor on the org
 * or on any other container holding the record (its team, its project, a project's teams).
 */
function modelCapability(
  actor: Actor,
  holders: readonly (string | null)[],
  grants: Array<{ subjectId: string; containerId: string; capability: Capability }>,
  teamsOf: Map<string, Set<string>>,
  orgId: string,
): Capability | null {
  let best = actor.role ? BASE[actor.role]! : null
  for (const g of grants) {
    const reaches = g.subjectId === actor.id || (teamsOf.get(g.subjectId)?.has(actor.id) ?? false)
    const applies = g.containerId === orgId || holders.includes(g.containerId)
    if (reaches && applies && rank(g.capability) > rank(best)) best = g.capability
  }
  return best
}

describeEachDatabase('permission engine against a reference model (property)', (db) => {
  let server: Awaited<ReturnType<typeof startTestServer>>
  let owner: Awaited<ReturnType<typeof newPerson>>
  const people: Array<Awaited<ReturnType<typeof newPerson>>> = []
  beforeAll(async () => {
    server = await startTestServer(db, { config: { rateLimit: { limit: 1_000_000, windowSeconds: 60 } } })
    owner = await newPerson(server.engine)
    for (let i = 0; i < 3; i++) people.push(await newPerson(server.engine))
  })
  afterAll(() => server.drop())

  async function build(spec: WorldSpec) {
    const engine: Engine = server.engine
    const orgId = (await engine.execute('orgs.create', { body: { name: 'World' } }, owner.principal))
      .body as { id: OrgId }
    const now = new Date().toISOString()
    const world = await server.storage.transaction(async (s: Store) => {
      const teams: string[] = []
      const tasks: Array<{ id: string; teamId: string; projectId: string | null }> = []
      const states: string[] = []
      for (let t = 0; t < spec.teams; t++) {
        const teamId = newId('TeamId')
        await s.teams.insert({
          id: teamId,
          orgId: orgId.id,
          name: `T${t}`,
          key: `T${t}`,
          description: null,
          createdAt: now,
          updatedAt: now,
          archivedAt: null,
        })
        const stateId = newId('StateId')
        const d = DEFAULT_STATES[0]!
        await s.states.insert({
          id: stateId,
          orgId: orgId.id,
          teamId,
          name: d.name,
          category: d.category,
          color: d.color,
          description: null,
          position: 0,
          createdAt: now,
          updatedAt: now,
          archivedAt: null,
        })
        const ownerMember = (await s.members.findByUser(orgId.id, owner.user.id))!
        const taskId = newId('TaskId')
        await s.tasks.insert({
          id: taskId,
          orgId: orgId.id,
          teamId,
          number: await s.teams.nextTaskNumber(orgId.id, teamId),
          title: 'task',
          description: null,
          stateId,
          assigneeId: null,
          creatorId: ownerMember.id,
          priority: 'none',
          estimate: null,
          dueDate: null,
          createdAt: now,
          updatedAt: now,
          startedAt: null,
          completedAt: null,
          canceledAt: null,
          archivedAt: null,
          boardRank: 'a0',
        })
        teams.push(teamId)
        states.push(stateId)
        tasks.push({ id: taskId, teamId, projectId: null })
      }
      const actors: Actor[] = []
      for (const [i, role] of spec.people.entries()) {
        const person = people[i]!
        const id = newId('MemberId')
        await s.members.insert({
          id,
          orgId: orgId.id,
          userId: person.user.id,
          kind: 'person',
          role,
          status: 'active',
          createdAt: now,
          updatedAt: now,
        })
        actors.push({ id, role, principal: person.principal, token: person.token })
      }
      for (let a = 0; a < spec.agents; a++) {
        const id = newId('AgentId')
        await s.agents.insert({
          id,
          orgId: orgId.id,
          kind: 'agent',
          name: `A${a}`,
          description: null,
          status: 'active',
          approvalPolicy: { capabilities: [], operations: [] },
          createdBy: actors[0]!.id as never,
          createdAt: now,
          updatedAt: now,
        })
        actors.push({ id, role: null })
      }
      const teamsOf = new Map<string, Set<string>>(teams.map((t) => [t, new Set<string>()]))
      for (const [actorIndex, teamIndex] of spec.memberships) {
        const actor = actors[actorIndex % actors.length]!
        const teamId = teams[teamIndex % teams.length]!
        if (
          await s.access.addTeamMember({
            orgId: orgId.id,
            teamId: teamId as never,
            actorId: actor.id as never,
            createdAt: now,
          })
        )
          teamsOf.get(teamId)!.add(actor.id)
      }
      const grants: Array<{ subjectId: string; containerId: string; capability: Capability }> = []
      for (const g of spec.grants) {
        const subjectId = g.subjectIsTeam
          ? teams[g.subject % teams.length]!
          : actors[g.subject % actors.length]!.id
        const subjectType = g.subjectIsTeam ? 'team' : subjectId.startsWith('agt_') ? 'agent' : 'member'
        const containerId = g.onOrg ? orgId.id : teams[g.container % teams.length]!
        const key = { subjectType, subjectId, containerType: g.onOrg ? 'org' : 'team', containerId } as const
        if (await s.access.findGrant(orgId.id, key)) continue
        await s.access.insertGrant({
          id: newId('GrantId'),
          orgId: orgId.id,
          ...key,
          capability: g.capability,
          createdAt: now,
          updatedAt: now,
          createdBy: null,
        })
        grants.push({ subjectId, containerId, capability: g.capability })
      }
      return { teams, states, tasks, actors, teamsOf, grants }
    })
    // Projects through the engine (statuses and team links as a person makes them), then their
    // tasks and the grants on them.
    const projects: Array<{ id: string; teamIds: string[] }> = []
    for (const [p, picks] of spec.projects.entries()) {
      const teamIds = [...new Set(picks.map((i) => world.teams[i % world.teams.length]!))]
      const created = await engine.execute(
        'projects.create',
        { params: { orgId: orgId.id }, body: { name: `P${p}`, teamIds } },
        owner.principal,
      )
      projects.push({ id: (created.body as { id: string }).id, teamIds })
    }
    await server.storage.transaction(async (s: Store) => {
      const ownerMember = (await s.members.findByUser(orgId.id, owner.user.id))!
      // Ranks after the `a0` of each team's first task, unique across these tasks and so in every list.
      const ranks = ranksInOrder(spec.projectTasks.length + 1).slice(1)
      for (const [n, pick] of (projects.length ? spec.projectTasks : []).entries()) {
        const project = projects[pick % projects.length]!
        const teamId = project.teamIds[0]!
        const id = newId('TaskId')
        await s.tasks.insert({
          id,
          orgId: orgId.id,
          teamId,
          number: await s.teams.nextTaskNumber(orgId.id, teamId as never),
          title: 'project task',
          description: null,
          stateId: world.states[world.teams.indexOf(teamId)]!,
          assigneeId: null,
          creatorId: ownerMember.id,
          priority: 'none',
          estimate: null,
          dueDate: null,
          createdAt: now,
          updatedAt: now,
          startedAt: null,
          completedAt: null,
          canceledAt: null,
          archivedAt: null,
          projectId: project.id,
          boardRank: ranks[n]!,
          projectRank: ranks[n]!,
        } as never)
        world.tasks.push({ id, teamId, projectId: project.id })
      }
      for (const g of projects.length ? spec.projectGrants : []) {
        const subjectId = g.subjectIsTeam
          ? world.teams[g.subject % world.teams.length]!
          : world.actors[g.subject % world.actors.length]!.id
        const subjectType = g.subjectIsTeam ? 'team' : subjectId.startsWith('agt_') ? 'agent' : 'member'
        const containerId = projects[g.project % projects.length]!.id
        const key = { subjectType, subjectId, containerType: 'project', containerId } as const
        if (await s.access.findGrant(orgId.id, key)) continue
        await s.access.insertGrant({
          id: newId('GrantId'),
          orgId: orgId.id,
          ...key,
          capability: g.capability,
          createdAt: now,
          updatedAt: now,
          createdBy: null,
        })
        world.grants.push({ subjectId, containerId, capability: g.capability })
      }
    })
    // Programs and initiatives through the engine, then grants on them.
    const run = async (id: string, input: Parameters<Engine['execute']>[1]) => {
      const res = await engine.execute(id, input, owner.principal)
      if (res.status >= 300) throw new Error(`${id}: ${JSON.stringify(res.body)}`)
      return res.body as { id: string }
    }
    const params = { orgId: orgId.id }
    const programs: Array<{ id: string; projectIds: string[] }> = []
    for (const [i, picks] of spec.programs.entries()) {
      const program = await run('programs.create', { params, body: { name: `G${i}` } })
      const projectIds = projects.length
        ? [...new Set(picks.map((k) => projects[k % projects.length]!.id))]
        : []
      for (const projectId of projectIds)
        await run('programs.projects.add', { params: { ...params, programId: program.id, projectId } })
      programs.push({ id: program.id, projectIds })
    }
    const initiatives: Array<{
      id: string
      parentId: string | null
      projectIds: string[]
      programIds: string[]
    }> = []
    for (const [i, spec0] of spec.initiatives.entries()) {
      const parentId = spec0.parent !== null && i > 0 ? initiatives[spec0.parent % i]!.id : null
      const body = parentId ? { name: `I${i}`, parentId } : { name: `I${i}` }
      const initiative = await run('initiatives.create', { params, body })
      const at = { ...params, initiativeId: initiative.id }
      const projectIds = projects.length
        ? [...new Set(spec0.projects.map((k) => projects[k % projects.length]!.id))]
        : []
      for (const projectId of projectIds)
        await run('initiatives.projects.add', { params: { ...at, projectId } })
      const programIds = programs.length
        ? [...new Set(spec0.programs.map((k) => programs[k % programs.length]!.id))]
        : []
      for (const programId of programIds)
        await run('initiatives.programs.add', { params: { ...at, programId } })
      initiatives.push({ id: initiative.id, parentId, projectIds, programIds })
    }
    await server.storage.transaction(async (s: Store) => {
      for (const g of spec.containerGrants) {
        const pool = g.onInitiative ? initiatives : programs
        if (pool.length === 0) continue
        const subjectId = g.subjectIsTeam
          ? world.teams[g.subject % world.teams.length]!
          : world.actors[g.subject % world.actors.length]!.id
        const subjectType = g.subjectIsTeam ? 'team' : subjectId.startsWith('agt_') ? 'agent' : 'member'
        const containerId = pool[g.container % pool.length]!.id
        const containerType = g.onInitiative ? 'initiative' : 'program'
        const key = { subjectType, subjectId, containerType, containerId } as const
        if (await s.access.findGrant(orgId.id, key)) continue
        await s.access.insertGrant({
          id: newId('GrantId'),
          orgId: orgId.id,
          ...key,
          capability: g.capability,
          createdAt: now,
          updatedAt: now,
          createdBy: null,
        })
        world.grants.push({ subjectId, containerId, capability: g.capability })
      }
    })
    return { orgId: orgId.id, ...world, projects, programs, initiatives }
  }

  /**
   * The model's containers above a project, program or initiative, from the world alone: the
   * programs holding the project, the initiatives linking it or those programs, and their ancestors.
   */
  function above(
    w: Awaited<ReturnType<typeof build>>,
    holder: { projectId?: string; programId?: string; initiativeId?: string },
  ): string[] {
    const programIds = holder.programId
      ? [holder.programId]
      : w.programs.filter((g) => holder.projectId && g.projectIds.includes(holder.projectId)).map((g) => g.id)
    const out = new Set<string>(programIds)
    for (const i of w.initiatives) {
      const links =
        i.id === holder.initiativeId ||
        (holder.projectId !== undefined && i.projectIds.includes(holder.projectId)) ||
        i.programIds.some((id) => programIds.includes(id))
      if (!links) continue
      for (let at: string | null = i.id; at; at = w.initiatives.find((x) => x.id === at)!.parentId)
        out.add(at)
    }
    return [...out]
  }

  it(`agrees with the model on every list, get and mutation, through the engine and over HTTP (${WORLDS} worlds)`, async () => {
    await fc.assert(
      fc.asyncProperty(worldArb, async (spec) => {
        const w = await build(spec)
        const cap = (actor: Actor, ...holders: (string | null)[]) =>
          modelCapability(actor, holders, w.grants, w.teamsOf, w.orgId)
        const taskCap = (actor: Actor, t: { teamId: string; projectId: string | null }) =>
          cap(actor, t.teamId, t.projectId, ...(t.projectId ? above(w, { projectId: t.projectId }) : []))
        const projectCap = (actor: Actor, p: { id: string; teamIds: string[] }) =>
          cap(actor, p.id, ...p.teamIds, ...above(w, { projectId: p.id }))
        const programCap = (actor: Actor, g: { id: string }) => cap(actor, ...above(w, { programId: g.id }))
        const initiativeCap = (actor: Actor, i: { id: string }) =>
          cap(actor, ...above(w, { initiativeId: i.id }))
        for (const actor of w.actors) {
          for (const teamId of w.teams) {
            const why = await server.engine.execute(
              'access.explain',
              {
                params: { orgId: w.orgId },
                query: { actorId: actor.id, capability: 'view', targetType: 'team', targetId: teamId },
              },
              owner.principal,
            )
            expect(
              (why.body as { effective: Capability | null }).effective,
              `explain ${actor.id} on ${teamId}`,
            ).toBe(cap(actor, teamId))
          }
          // Projects and tasks in projects: the effective capability, and the grant that decided it.
          const explained = [
            ...w.projects.map((p) => ({ type: 'project', id: p.id, want: projectCap(actor, p) })),
            ...w.programs.map((g) => ({ type: 'program', id: g.id, want: programCap(actor, g) })),
            ...w.initiatives.map((i) => ({ type: 'initiative', id: i.id, want: initiativeCap(actor, i) })),
            ...w.tasks
              .filter((t) => t.projectId)
              .map((t) => ({ type: 'task', id: t.id, want: taskCap(actor, t) })),
          ]
          for (const target of explained) {
            const why = (
              await server.engine.execute(
                'access.explain',
                {
                  params: { orgId: w.orgId },
                  query: {
                    actorId: actor.id,
                    capability: 'view',
                    targetType: target.type,
                    targetId: target.id,
                  },
                },
                owner.principal,
              )
            ).body as {
              effective: Capability | null
              decidingGrant: { capability: Capability } | null
            }
            const label = `explain ${actor.id} on ${target.type} ${target.id}`
            expect(why.effective, label).toBe(target.want)
            const roleDecides = rank(target.want) <= rank(actor.role ? BASE[actor.role]! : null)
            expect(why.decidingGrant?.capability ?? null, label).toBe(roleDecides ? null : target.want)
          }
          if (!actor.principal) continue
          const visibleTasks = w.tasks
            .filter((t) => rank(taskCap(actor, t)) >= 0)
            .map((t) => t.id)
            .sort()
          const visibleTeams = w.teams.filter((t) => rank(cap(actor, t)) >= 0).sort()
          const api = server.as(actor.token!)
          const listed = (
            await server.engine.execute(
              'tasks.list',
              { params: { orgId: w.orgId }, query: { limit: '1' } },
              actor.principal,
            )
          ).body as { nextCursor: string | null; data: Array<{ id: string }> }
          expect(listed.data.length, 'first page is exact').toBe(Math.min(1, visibleTasks.length))
          expect(
            (await api.get(`/v1/orgs/${w.orgId}/tasks?limit=200`)).body.data
              .map((t: { id: string }) => t.id)
              .sort(),
          ).toEqual(visibleTasks)
          expect(
            (await api.get(`/v1/orgs/${w.orgId}/teams?limit=200`)).body.data
              .map((t: { id: string }) => t.id)
              .sort(),
          ).toEqual(visibleTeams)
          const visibleProjects = w.projects
            .filter((p) => rank(projectCap(actor, p)) >= 0)
            .map((p) => p.id)
            .sort()
          expect(
            (await api.get(`/v1/orgs/${w.orgId}/projects?limit=200`)).body.data
              .map((p: { id: string }) => p.id)
              .sort(),
          ).toEqual(visibleProjects)
          // Programs: those a grant reaches, or holding a project the reader sees; initiatives: those a
          // grant reaches, or linking (they or a sub-initiative) a project the reader sees.
          const seesProject = (id: string) => visibleProjects.includes(id)
          const visiblePrograms = w.programs
            .filter((g) => rank(programCap(actor, g)) >= 0 || g.projectIds.some(seesProject))
            .map((g) => g.id)
            .sort()
          expect(
            (await api.get(`/v1/orgs/${w.orgId}/programs?limit=200`)).body.data
              .map((g: { id: string }) => g.id)
              .sort(),
            `programs as ${actor.role}`,
          ).toEqual(visiblePrograms)
          const below = (id: string): string[] => [
            id,
            ...w.initiatives.filter((i) => i.parentId === id).flatMap((i) => below(i.id)),
          ]
          const visibleInitiatives = w.initiatives
            .filter(
              (i) =>
                rank(initiativeCap(actor, i)) >= 0 ||
                below(i.id).some((d) => w.initiatives.find((x) => x.id === d)!.projectIds.some(seesProject)),
            )
            .map((i) => i.id)
            .sort()
          expect(
            (await api.get(`/v1/orgs/${w.orgId}/initiatives?limit=200`)).body.data
              .map((i: { id: string }) => i.id)
              .sort(),
            `initiatives as ${actor.role}`,
          ).toEqual(visibleInitiatives)
          for (const project of w.projects) {
            const c = projectCap(actor, project)
            expect(
              await server.engine
                .execute(
                  'projects.get',
                  { params: { orgId: w.orgId, projectId: project.id } },
                  actor.principal,
                )
                .then(
                  () => 200,
                  (e) => e.status,
                ),
              `project get as ${actor.role}`,
            ).toBe(rank(c) >= 0 ? 200 : 404)
            expect(
              (await api.patch(`/v1/orgs/${w.orgId}/projects/${project.id}`, { description: actor.id }))
                .status,
              `project edit as ${actor.role}`,
            ).toBe(rank(c) < 0 ? 404 : rank(c) >= rank('contribute') ? 200 : 403)
          }
          for (const task of w.tasks) {
            const c = taskCap(actor, task)
            const getStatus = rank(c) >= 0 ? 200 : 404
            expect(
              await server.engine
                .execute('tasks.get', { params: { orgId: w.orgId, taskId: task.id } }, actor.principal)
                .then(
                  () => 200,
                  (e) => e.status,
                ),
            ).toBe(getStatus)
            const editStatus = rank(c) < 0 ? 404 : rank(c) >= rank('contribute') ? 200 : 403
            expect(
              (await api.patch(`/v1/orgs/${w.orgId}/tasks/${task.id}`, { title: `by ${actor.id}` })).status,
              `edit as ${actor.role}`,
            ).toBe(editStatus)
            const onTeam = cap(actor, task.teamId)
            const teamEdit = rank(onTeam) < 0 ? 404 : rank(onTeam) >= rank('manage') ? 200 : 403
            const engineTeamEdit = await server.engine
              .execute(
                'teams.update',
                { params: { orgId: w.orgId, teamId: task.teamId }, body: { description: actor.id } },
                actor.principal,
              )
              .then(
                () => 200,
                (e) => e.status,
              )
            expect(engineTeamEdit, `team edit as ${actor.role}`).toBe(teamEdit)
          }
        }
        const stray = await server.storage.read((s) =>
          s.tasks.list(
            w.orgId,
            { archived: false },
            { sort: 'createdAt', direction: 'asc', after: null, limit: 50 },
            UNSCOPED,
          ),
        )
        expect(stray).toHaveLength(w.tasks.length)
      }),
      { numRuns: WORLDS },
    )
    // Projects made through the engine and their explain, list and edit checks roughly double a
    // world's cost; Postgres on a busy two-core machine needs the room.
  }, 1_500_000)
})

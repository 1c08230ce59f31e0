/**
 * The org every permissions bench measures, seeded in one call: the owner, the org, its teams and
 * first project through the engine, then the people, projects, grants and tasks of
 * bench/permissions-world.ts through storage.
 */
import type { MemberId, OrgId, Principal, ProjectId, TeamId } from '@workgraph/core'
import { createUser } from '@workgraph/core'
import type { User } from '@workgraph/core/storage'
import type { RunningServer } from '@workgraph/server'
import {
  MEMBERS,
  type Person,
  PROJECTS,
  type Row,
  seedAccess,
  seedPeople,
  seedProjects,
  seedTasks,
  TASKS,
  TEAMS,
} from './permissions-world.ts'

/** The seeded org, with the owner's engine call that the benches use for whatever else they add. */
export interface World {
  owner: User
  /** The owner's principal (`work:read work:write`). */
  principal: Principal
  /** Runs a catalogue operation as the owner through the engine; throws on a non-2xx answer. */
  call<T>(id: string, input: Record<string, unknown>): Promise<T>
  orgId: OrgId
  teamIds: TeamId[]
  people: Person[]
  projectsByTeam: Map<string, ProjectId[]>
  access: Awaited<ReturnType<typeof seedAccess>>
  rows: Row[]
}

/**
 * The org every permissions bench measures: an owner, the org and its teams and first project through
 * the engine, then people, projects, grants and tasks through storage. Statistics are the caller's
 * to gather (`analyzePostgres`), after whatever it seeds on top.
 */
export async function seedWorld({ engine, storage }: RunningServer, orgName: string): Promise<World> {
  const owner = await createUser(storage, { email: 'owner@example.com', name: 'Owner' })
  const principal = await engine.tokens.verifyAccessToken(
    await engine.tokens.issueAccessToken({ userId: owner.id, scopes: ['work:read', 'work:write'] }),
  )
  const call = async <T>(id: string, input: Record<string, unknown>): Promise<T> => {
    const result = await engine.execute(id, input as never, principal)
    if (result.status >= 300) throw new Error(`${id}: HTTP ${result.status} ${JSON.stringify(result.body)}`)
    return result.body as T
  }
  const org = await call<{ id: OrgId }>('orgs.create', { body: { name: orgName } })
  const teamIds: TeamId[] = []
  for (let t = 0; t < TEAMS; t++) {
    const body = { name: `Team ${t}`, key: `T${String(t).padStart(2, '0')}` }
    teamIds.push((await call<{ id: TeamId }>('teams.create', { params: { orgId: org.id }, body })).id)
  }
  const first = await call<{ id: ProjectId; statusId: string; creatorId: MemberId }>('projects.create', {
    params: { orgId: org.id },
    body: { name: 'Project 0', teamIds: [teamIds[0]] },
  })
  const started = performance.now()
  const people = await seedPeople(storage, org.id)
  const projectsByTeam = await seedProjects(storage, org.id, teamIds, first)
  const access = await seedAccess(storage, org.id, teamIds, people, projectsByTeam)
  const rows = await seedTasks(storage, org.id, teamIds, people, projectsByTeam)
  console.log(
    `${storage.dialect}: seeded ${TASKS} tasks (${rows.filter((r) => r.projectId).length} in projects), ` +
      `${TEAMS} teams, ${PROJECTS} projects, ${MEMBERS} members, ${access.grants.length} grants ` +
      `(${access.grants.filter((g) => g.containerType === 'project').length} on projects) and ` +
      `${access.memberships} team memberships in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  )
  return { owner, principal, call, orgId: org.id, teamIds, people, projectsByTeam, access, rows }
}

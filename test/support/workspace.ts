import { type MemberId, newId, type OrgId, type OrgRole } from '@workgraph/core'
import { newPerson, type TestPerson } from './fixtures.ts'
import type { TestServer } from './http.ts'

export interface TestWorkspace {
  owner: TestPerson
  orgId: OrgId
  teamId: string
  /** The team's states by name. */
  states: Record<string, { id: string; category: string }>
  api: ReturnType<TestServer['as']>
  /** Adds another person to the org with the given role (there is no invitation API yet). */
  addMember(role: OrgRole): Promise<TestPerson & { memberId: MemberId; api: ReturnType<TestServer['as']> }>
}

/**
 * A fresh org with an owner and one team `ENG`, made through the engine (the same pipeline as the
 * API, without HTTP: the tests that use it are about what comes after).
 */
export async function newWorkspace(
  server: TestServer,
  options: { teamKey?: string } = {},
): Promise<TestWorkspace> {
  const owner = await newPerson(server.engine)
  const api = server.as(owner.token)
  const run = async (id: string, params: Record<string, unknown>, body?: unknown): Promise<any> =>
    (await server.engine.execute(id, { params, ...(body ? { body } : {}) }, owner.principal)).body
  const org = await run('orgs.create', {}, { name: 'Acme' })
  const orgId = org.id as OrgId
  const team = await run('teams.create', { orgId }, { name: 'Engineering', key: options.teamKey ?? 'ENG' })
  const states = await run('states.list', { orgId, teamId: team.id })
  return {
    owner,
    orgId,
    teamId: team.id,
    api,
    states: Object.fromEntries(states.data.map((s: any) => [s.name, { id: s.id, category: s.category }])),
    async addMember(role) {
      const person = await newPerson(server.engine)
      const memberId = newId('MemberId')
      const now = new Date().toISOString()
      await server.storage.transaction((s) =>
        s.members.insert({
          id: memberId,
          orgId,
          userId: person.user.id,
          kind: 'person',
          role,
          status: 'active',
          createdAt: now,
          updatedAt: now,
        }),
      )
      return { ...person, memberId, api: server.as(person.token) }
    },
  }
}

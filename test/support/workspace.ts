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

/** A fresh org with an owner and one team `ENG`, created through the API. */
export async function newWorkspace(
  server: TestServer,
  options: { teamKey?: string } = {},
): Promise<TestWorkspace> {
  const owner = await newPerson(server.engine)
  const api = server.as(owner.token)
  const org = await api.post('/v1/orgs', { name: 'Acme' })
  if (org.status !== 201) throw new Error(`org: ${JSON.stringify(org.body)}`)
  const orgId = org.body.id as OrgId
  const team = await api.post(`/v1/orgs/${orgId}/teams`, {
    name: 'Engineering',
    key: options.teamKey ?? 'ENG',
  })
  if (team.status !== 201) throw new Error(`team: ${JSON.stringify(team.body)}`)
  const states = await api.get(`/v1/orgs/${orgId}/teams/${team.body.id}/states`)
  return {
    owner,
    orgId,
    teamId: team.body.id,
    api,
    states: Object.fromEntries(
      states.body.data.map((s: any) => [s.name, { id: s.id, category: s.category }]),
    ),
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

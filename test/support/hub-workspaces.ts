import { type MemberId, newId, type OrgRole, type UserId } from '@workgraph/core'
import type { TestPerson } from './fixtures.ts'
import { grant } from './grants.ts'
import type { TestServer } from './http.ts'
import { newWorkspace, type TestWorkspace } from './workspace.ts'

/** Adds an existing person to a workspace with a role, straight to storage (there is no invitation API in tests). */
export async function joinWorkspace(
  server: TestServer,
  ws: TestWorkspace,
  userId: UserId,
  role: OrgRole,
  at: Date = new Date(),
): Promise<MemberId> {
  const memberId = newId('MemberId')
  await server.storage.transaction((s) =>
    s.members.insert({
      id: memberId,
      orgId: ws.orgId,
      userId,
      kind: 'person',
      role,
      status: 'active',
      createdAt: at.toISOString(),
      updatedAt: at.toISOString(),
    }),
  )
  return memberId
}

/** POSTs to a path of the workspace as its owner and answers the body; anything but 200 or 201 throws. */
export async function postIn(ws: TestWorkspace, path: string, body: unknown): Promise<any> {
  const res = await ws.api.post(`/v1/orgs/${ws.orgId}${path}`, body)
  if (res.status !== 201 && res.status !== 200) throw new Error(`${path}: ${JSON.stringify(res.body)}`)
  return res.body
}

export interface HubWorkspaces {
  a: TestWorkspace
  b: TestWorkspace
  c: TestWorkspace
  alice: TestPerson
  /** Alice's client: the hub reads are hers. */
  api: ReturnType<TestServer['as']>
  aliceInA: MemberId
  aliceInB: MemberId
  aliceInC: MemberId
  /** A team of C that Alice's grant does not reach. */
  secretTeam: string
}

/**
 * The world every hub test reads across: Alice owns A, is a member of B, and a guest of C who sees
 * only its ENG team; C also has a Secret team, whose records must never show to her. `at` dates her
 * memberships (a suite that moves the server's clock passes its time).
 */
export async function hubWorkspaces(
  server: TestServer,
  at: () => Date = () => new Date(),
): Promise<HubWorkspaces> {
  const a = await newWorkspace(server)
  const b = await newWorkspace(server)
  const c = await newWorkspace(server)
  const alice = a.owner
  const api = server.as(alice.token)
  const me = (await api.get('/v1/me')).body
  const aliceInA = me.memberships.find((m: any) => m.orgId === a.orgId).memberId as MemberId
  const aliceInB = await joinWorkspace(server, b, alice.user.id, 'member', at())
  const aliceInC = await joinWorkspace(server, c, alice.user.id, 'guest', at())
  await grant(c, aliceInC, 'view', { type: 'team', id: c.teamId })
  const secretTeam = (await postIn(c, '/teams', { name: 'Secret', key: 'SEC' })).id as string
  return { a, b, c, alice, api, aliceInA, aliceInB, aliceInC, secretTeam }
}

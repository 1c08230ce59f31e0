import type { Capability } from '@workgraph/core'
import type { TestWorkspace } from './workspace.ts'

/** A guest who holds `capability` on the workspace's team only: other teams are invisible to them. */
export async function teamGuest(ws: TestWorkspace, capability: Capability, teamId = ws.teamId) {
  const guest = await ws.addMember('guest')
  await grant(ws, guest.memberId, capability, { type: 'team', id: teamId })
  return guest
}

/** Grants a capability to a member through the API, as the workspace owner. */
export async function grant(
  ws: TestWorkspace,
  memberId: string,
  capability: Capability,
  container: { type: 'org' } | { type: 'team' | 'project' | 'program' | 'initiative'; id: string } = {
    type: 'team',
    id: ws.teamId,
  },
): Promise<void> {
  const res = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
    subjectType: 'member',
    subjectId: memberId,
    containerType: container.type,
    containerId: container.type === 'org' ? ws.orgId : container.id,
    capability,
  })
  if (res.status !== 201) throw new Error(`grant: ${JSON.stringify(res.body)}`)
}

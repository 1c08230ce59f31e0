import type { TestWorkspace } from './workspace.ts'

/** A guest who holds `capability` on the workspace's team only: other teams are invisible to them. */
export async function teamGuest(ws: TestWorkspace, capability: string, teamId = ws.teamId) {
  const guest = await ws.addMember('guest')
  const res = await ws.api.post(`/v1/orgs/${ws.orgId}/grants`, {
    subjectType: 'member',
    subjectId: guest.memberId,
    containerType: 'team',
    containerId: teamId,
    capability,
  })
  if (res.status !== 201) throw new Error(`grant: ${JSON.stringify(res.body)}`)
  return guest
}

import type { TestWorkspace } from './workspace.ts'

/** Grants a capability to a member through the API, as the workspace owner. */
export async function grant(
  ws: TestWorkspace,
  memberId: string,
  capability: 'view' | 'comment' | 'contribute' | 'assign' | 'manage',
  container: { type: 'org' } | { type: 'team'; id: string } = { type: 'team', id: ws.teamId },
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

import type { OrgId } from '../kernel/ids.ts'
import type { Container } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'

/**
 * The programs and initiatives holding a project, program or initiative, as containers: a grant on
 * any of them counts on the record and on everything it holds (tasks and milestones of a project).
 */
export async function containersAbove(
  store: Store,
  orgId: OrgId,
  holder: { type: 'project' | 'program' | 'initiative'; id: string },
): Promise<Container[]> {
  const above = await store.access.containersAbove(orgId, holder)
  return [
    ...above.programIds.map((id) => ({ type: 'program' as const, id })),
    ...above.initiativeIds.map((id) => ({ type: 'initiative' as const, id })),
  ]
}

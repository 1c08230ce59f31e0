import { containersAbove } from '../access/containers-above.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    program: true
  }
}

/**
 * A program is held by the org, by each of its teams (a grant on one of them counts on the program),
 * by itself and by every initiative linking it, with their ancestors.
 */
export async function programContainers(store: Store, orgId: OrgId, id: string): Promise<Container[] | null> {
  const program = await store.programs.get(orgId, id as never)
  if (!program) return null
  const teamIds = await store.programs.teamIds(orgId, program.id)
  return [
    { type: 'org', id: orgId },
    ...teamIds.map((t) => ({ type: 'team' as const, id: t })),
    ...(await containersAbove(store, orgId, { type: 'program', id: program.id })),
  ]
}

export const programTargets = {
  program: { name: 'Program', containers: programContainers },
} satisfies Record<string, TargetResolver>

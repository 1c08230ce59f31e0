import type { OrgId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { requireProject } from '../projects/service.ts'
import { projectTargets } from '../projects/targets.ts'
import type { LinkParentType } from './schemas.ts'

/** What the links group needs of a container, as the caller sees it. */
export interface LinkParent {
  /** For problem details: `Project`. */
  name: string
  /** The container as the caller may view it; 404 otherwise. */
  require(ctx: OperationContext, id: string): Promise<{ id: string }>
  /** The team an event about its links is filed under (null: org level), so it reaches who can view it. */
  eventTeam(store: Store, orgId: OrgId, id: string): Promise<TeamId | null>
  /** The containers holding it, for capability checks on its links. */
  containers(store: Store, orgId: OrgId, id: string): Promise<Container[] | null>
}

const registry: Partial<Record<LinkParentType, LinkParent>> = {
  project: {
    name: 'Project',
    require: (ctx, id) => requireProject(ctx, id as ProjectId),
    // As the projects group files its own events: under the project's first team.
    async eventTeam(store, orgId, id) {
      const project = await store.projects.get(orgId, id as ProjectId, UNSCOPED)
      return (project?.teamIds[0] as TeamId | undefined) ?? null
    },
    containers: (store, orgId, id) => projectTargets.project.containers(store, orgId, id),
  },
}

/** Every kind of container, once the groups that declare them are loaded (the catalogue loads them all). */
export const LINK_PARENTS = registry as Readonly<Record<LinkParentType, LinkParent>>

/** Called once by the group a container kind belongs to (programs, initiatives), which this group may not import. */
export function registerLinkParent(type: Exclude<LinkParentType, 'project'>, parent: LinkParent): void {
  registry[type] = parent
}

import type { OrgId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { requireProject } from '../projects/service.ts'
import { projectTargets } from '../projects/targets.ts'
import { requireTeam } from '../teams/service.ts'
import { teamTargets } from '../teams/targets.ts'
import type { DocumentHolderType } from './schemas.ts'

/** What the documents group needs of a holder, as the caller sees it. */
export interface HolderView {
  id: string
  archivedAt: string | null
}

/**
 * How each kind of holder is read. Programs and initiatives add an entry (and a visibility predicate
 * in storage); the operations, storage and events of documents stay as they are.
 */
export interface DocumentHolder {
  /** For problem details: `Project`. */
  name: string
  /** The holder as the caller may view it; 404 otherwise. */
  require(ctx: OperationContext, id: string): Promise<HolderView>
  /** The team an event about its documents is filed under: whoever reads it can view the holder. */
  eventTeam(store: Store, orgId: OrgId, id: string): Promise<TeamId>
  /** The containers holding it, for capability checks on its documents. */
  containers(store: Store, orgId: OrgId, id: string): Promise<Container[] | null>
}

export const HOLDERS: Record<DocumentHolderType, DocumentHolder> = {
  team: {
    name: 'Team',
    require: (ctx, id) => requireTeam(ctx, id as TeamId),
    eventTeam: async (_store, _orgId, id) => id as TeamId,
    containers: (store, orgId, id) => teamTargets.team.containers(store, orgId, id),
  },
  project: {
    name: 'Project',
    require: (ctx, id) => requireProject(ctx, id as ProjectId),
    // Project events are filed under its first team, as the projects group files its own.
    async eventTeam(store, orgId, id) {
      const project = await store.projects.get(orgId, id as ProjectId, UNSCOPED)
      return project!.teamIds[0] as TeamId
    },
    containers: (store, orgId, id) => projectTargets.project.containers(store, orgId, id),
  },
}

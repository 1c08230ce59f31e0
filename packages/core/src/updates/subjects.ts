import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { projectProgress } from '../projects/progress.ts'
import { requireProject } from '../projects/service.ts'
import { projectTargets } from '../projects/targets.ts'
import type { UpdateProgress, UpdateSubjectType } from './schemas.ts'

/** What the updates group needs of a subject it is posted on, as the caller sees it. */
export interface SubjectView {
  id: string
  name: string
  archivedAt: string | null
  lastUpdateAt: string | null
  /** A project's lead. */
  leadId?: string | null
  /** A program's or an initiative's owner. */
  ownerId?: string | null
}

/**
 * How each kind of subject is read. Groups above this one (initiatives, programs) fill the hooks
 * `updates.<kind>` with theirs; the operations, storage and events of updates stay as they are.
 */
export interface UpdateSubject {
  /** For problem details: `Project`. */
  name: string
  /** The subject as the caller may view it; 404 otherwise. */
  require(ctx: OperationContext, id: string): Promise<SubjectView>
  /** Its progress as the caller sees it now, or null when it has no tasks. */
  progress(ctx: OperationContext, id: string): Promise<UpdateProgress | null>
  /**
   * The team an event about its updates is filed under: whoever reads it can view the subject; null
   * files it at org level (readers with org-wide view).
   */
  eventTeam(store: Store, orgId: OrgId, id: string): Promise<TeamId | null>
  /** The containers holding the subject, for capability checks on its updates. */
  containers(store: Store, orgId: OrgId, id: string, hook: HookReader): Promise<Container[] | null>
}

declare module '../kernel/hooks.ts' {
  interface Hooks {
    'updates.program': UpdateSubject
    'updates.initiative': UpdateSubject
  }
}

/** Projects, the one kind of subject of a group below this one. */
const PROJECT: UpdateSubject = {
  name: 'Project',
  require: (ctx, id) => requireProject(ctx, id as ProjectId),
  async progress(ctx, id) {
    const p = await projectProgress(ctx, id as ProjectId)
    if (p.total.tasks === 0) return null
    return {
      tasks: p.total.tasks,
      completedTasks: p.byCategory.completed.tasks,
      completedRatio: p.completedRatio,
    }
  },
  async eventTeam(store, orgId, id) {
    const project = await store.projects.get(orgId, id as ProjectId, UNSCOPED)
    return project!.teamIds[0] as TeamId
  },
  containers: (store, orgId, id) => projectTargets.project.containers(store, orgId, id),
}

/** How a kind of subject is read: projects here, the others through the hook their group fills. */
export function updateSubject(hook: HookReader, type: UpdateSubjectType): UpdateSubject {
  return type === 'project' ? PROJECT : hook(`updates.${type}`)
}

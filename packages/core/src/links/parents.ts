import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId, ProjectId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Container } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { requireProject } from '../projects/service.ts'
import { projectTargets } from '../projects/targets.ts'
import { recordTaskHistory } from '../tasks/history/history.ts'
import { requireTask } from '../tasks/require-task.ts'
import { taskTargets } from '../tasks/targets.ts'
import type { Link, LinkParentType } from './schemas.ts'

/** What the links group needs of a parent record, as the caller sees it. */
export interface LinkParent {
  /** For problem details: `Project`. */
  name: string
  /** The parent as the caller may view it; 404 otherwise. */
  require(ctx: OperationContext, id: string): Promise<{ id: string }>
  /** The team an event about its links is filed under (null: org level), so it reaches who can view it. */
  eventTeam(store: Store, orgId: OrgId, id: string): Promise<TeamId | null>
  /** The containers holding it, for capability checks on its links. */
  containers(store: Store, orgId: OrgId, id: string, hook: HookReader): Promise<Container[] | null>
  /** Removing a link someone else added needs `manage` on the parent (tasks), not only `contribute`. */
  othersNeedManage?: boolean
  /** Called after a link's url or title changes (added, edited, removed), for the parent's own history. */
  changed?(ctx: OperationContext, before: Link | null, after: Link | null): Promise<void>
}

const value = (link: Link | null) => (link ? { url: link.url, title: link.title } : null)

// Programs and initiatives sit above this group in the layering: their groups fill these hooks.
declare module '../kernel/hooks.ts' {
  interface Hooks {
    'links.program': LinkParent
    'links.initiative': LinkParent
  }
}

/** The kinds of parent of this group and the groups below it. */
const OWN: Record<'task' | 'project', LinkParent> = {
  task: {
    name: 'Task',
    require: (ctx, id) => requireTask(ctx, id as TaskId),
    // As the tasks group files its own events: under the task's team.
    async eventTeam(store, orgId, id) {
      const task = await store.tasks.get(orgId, id as TaskId, UNSCOPED)
      return task?.teamId ?? null
    },
    containers: (store, orgId, id) => taskTargets.task.containers(store, orgId, id),
    othersNeedManage: true,
    // A task's history keeps its links (`links`), as before they joined the links family.
    async changed(ctx, before, after) {
      const link = (after ?? before)!
      await recordTaskHistory(ctx, { id: link.parentId as TaskId, orgId: link.orgId }, [
        { field: 'links', before: value(before), after: value(after) },
      ])
    },
  },
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

/** How a kind of parent is read: this group's own, or the hook its group fills. */
export function linkParent(hook: HookReader, type: LinkParentType): LinkParent {
  return type === 'task' || type === 'project' ? OWN[type] : hook(`links.${type}`)
}

import { containersAbove } from '../access/containers-above.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { Container, TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    task: true
  }
}

/** A task is held by its org, its team and, when it has one, its project and what holds the project. */
export const taskTargets = {
  task: {
    name: 'Task',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const task = await store.tasks.get(orgId, id as never, UNSCOPED)
      if (!task) return null
      const containers: Container[] = [
        { type: 'org', id: orgId },
        { type: 'team', id: task.teamId },
      ]
      if (task.projectId)
        containers.push(
          { type: 'project', id: task.projectId },
          ...(await containersAbove(store, orgId, { type: 'project', id: task.projectId })),
        )
      return containers
    },
  },
} satisfies Record<string, TargetResolver>

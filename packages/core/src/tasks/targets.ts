import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    task: true
  }
}

/** A task is held by its team. */
export const taskTargets = {
  task: {
    name: 'Task',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const task = await store.tasks.get(orgId, id as never, UNSCOPED)
      return task
        ? [
            { type: 'org', id: orgId },
            { type: 'team', id: task.teamId },
          ]
        : null
    },
  },
} satisfies Record<string, TargetResolver>

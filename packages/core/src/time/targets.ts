import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { projectTargets } from '../projects/targets.ts'
import { taskTargets } from '../tasks/targets.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    time_entry: true
    allocation: true
  }
}

/** An entry is held by its task's holders; an allocation by its project's. */
export const timeTargets = {
  time_entry: {
    name: 'Time entry',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const entry = await store.timeEntries.get(orgId, id as never, UNSCOPED)
      return entry ? taskTargets.task.containers(store, orgId, entry.taskId) : null
    },
  },
  allocation: {
    name: 'Allocation',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const allocation = await store.allocations.get(orgId, id as never, UNSCOPED)
      return allocation ? projectTargets.project.containers(store, orgId, allocation.projectId) : null
    },
  },
} satisfies Record<string, TargetResolver>

import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { projectTargets } from '../projects/targets.ts'
import { taskTargets } from '../tasks/targets.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    linked_item: true
  }
}

/** A linked item is held by whatever holds its task or project: its capability is that record's. */
export const connectorTargets = {
  linked_item: {
    name: 'Linked item',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const item = await store.linkedItems.get(orgId, id as never)
      if (!item) return null
      return item.taskId
        ? taskTargets.task.containers(store, orgId, item.taskId)
        : projectTargets.project.containers(store, orgId, item.projectId!)
    },
  },
} satisfies Record<string, TargetResolver>

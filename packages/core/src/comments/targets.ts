import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    comment: true
  }
}

/** A comment is held by the team of its task. */
export const commentTargets = {
  comment: {
    name: 'Comment',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const comment = await store.comments.get(orgId, id as never, UNSCOPED)
      if (!comment) return null
      const task = await store.tasks.get(orgId, comment.taskId, UNSCOPED)
      return task
        ? [
            { type: 'org', id: orgId },
            { type: 'team', id: task.teamId },
          ]
        : null
    },
  },
} satisfies Record<string, TargetResolver>

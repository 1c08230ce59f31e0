import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { COMMENT_SUBJECTS } from './subjects.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    comment: true
  }
}

/** A comment is held by whatever holds its subject (a task's team, a project's teams). */
export const commentTargets = {
  comment: {
    name: 'Comment',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const comment = await store.comments.get(orgId, id as never)
      return comment
        ? COMMENT_SUBJECTS[comment.subjectType].containers(store, orgId, comment.subjectId)
        : null
    },
  },
} satisfies Record<string, TargetResolver>

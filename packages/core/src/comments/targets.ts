import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { COMMENT_SUBJECTS } from './subjects.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    comment: true
    reaction: true
  }
}

/** A comment is held by whatever holds its subject (a task's team, a project's teams). */
async function commentContainers(store: Store, orgId: OrgId, id: string, hook: HookReader) {
  const comment = await store.comments.get(orgId, id as never)
  return comment
    ? COMMENT_SUBJECTS[comment.subjectType].containers(store, orgId, comment.subjectId, hook)
    : null
}

export const commentTargets = {
  comment: { name: 'Comment', containers: commentContainers },
  /** A reaction is held by whatever holds what it reacts to. */
  reaction: {
    name: 'Reaction',
    containers: async (store: Store, orgId: OrgId, id: string, hook: HookReader) => {
      const reaction = await store.reactions.get(orgId, id as never)
      if (!reaction) return null
      return reaction.targetType === 'comment'
        ? commentContainers(store, orgId, reaction.targetId, hook)
        : COMMENT_SUBJECTS[reaction.targetType].containers(store, orgId, reaction.targetId, hook)
    },
  },
} satisfies Record<string, TargetResolver>

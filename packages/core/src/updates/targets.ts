import type { HookReader } from '../kernel/hooks.ts'
import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { updateSubject } from './subjects.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    update: true
  }
}

/** An update is held by whatever holds its subject (for a project: the org and its teams). */
export const updateTargets = {
  update: {
    name: 'Update',
    containers: async (store: Store, orgId: OrgId, id: string, hook: HookReader) => {
      const update = await store.updates.get(orgId, id as never)
      return update
        ? updateSubject(hook, update.subjectType).containers(store, orgId, update.subjectId, hook)
        : null
    },
  },
} satisfies Record<string, TargetResolver>

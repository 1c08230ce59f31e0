import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import type { Store } from '../kernel/storage.ts'
import { SUBJECTS } from './subjects.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    update: true
  }
}

/** An update is held by whatever holds its subject (for a project: the org and its teams). */
export const updateTargets = {
  update: {
    name: 'Update',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const update = await store.updates.get(orgId, id as never)
      return update ? SUBJECTS[update.subjectType].containers(store, orgId, update.subjectId) : null
    },
  },
} satisfies Record<string, TargetResolver>

import type { OrgId } from '../kernel/ids.ts'
import type { TargetResolver } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { HOLDERS } from './holders.ts'

declare module '../kernel/permissions.ts' {
  interface TargetKinds {
    document: true
  }
}

/** A document is held by whatever holds its holder (a team: the org and the team; a project: the org and its teams). */
export const documentTargets = {
  document: {
    name: 'Document',
    containers: async (store: Store, orgId: OrgId, id: string) => {
      const document = await store.documents.get(orgId, id as never, UNSCOPED)
      return document ? HOLDERS[document.holderType].containers(store, orgId, document.holderId) : null
    },
  },
} satisfies Record<string, TargetResolver>

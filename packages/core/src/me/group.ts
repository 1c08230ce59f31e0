import type { ResourceGroup } from '../kernel/group.ts'
import { favoriteOperations } from './favorite-operations.ts'
import { meCatalogue } from './operations.ts'
import { planOperations } from './plan-operations.ts'
import { profileOperations } from './profile-operations.ts'

/** The caller's own account and personal data, across workspaces. */
export const meGroup: ResourceGroup = {
  name: 'me',
  tags: [
    {
      name: 'Me',
      description:
        "The caller's own account and personal data across workspaces: profile, preferences, favorites, the daily plan, signed-in web sessions and connected apps (OAuth consents). These writes belong to the person, not to a workspace, so no workspace stream carries them (docs/me.md).",
    },
  ],
  operations: [...profileOperations, ...meCatalogue, ...favoriteOperations, ...planOperations],
}

import type { ResourceGroup } from '../kernel/group.ts'
import { meCatalogue } from './operations.ts'

/** The caller's own account. */
export const meGroup: ResourceGroup = {
  name: 'me',
  tags: [
    {
      name: 'Me',
      description: "The caller's own account: signed-in web sessions and connected apps (OAuth consents).",
    },
  ],
  operations: meCatalogue,
}

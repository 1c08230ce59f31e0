import type { ResourceGroup } from '../kernel/group.ts'
import { awayOperations } from './away/operations.ts'
import { connectorConnectionOperations } from './connector-connections.ts'
import { ME_EVENT_DATA } from './event-data.ts'
import { favoriteOperations } from './favorites/operations.ts'
import { invitationOperations } from './invitations/operations.ts'
import { meCatalogue } from './operations.ts'
import { planOperations } from './plan/operations.ts'
import { ME_PROBLEMS } from './problems.ts'
import { profileOperations } from './profile/operations.ts'

/** The caller's own account and personal data, across workspaces. */
export const meGroup: ResourceGroup = {
  name: 'me',
  tags: [
    {
      name: 'Me',
      description:
        "The caller's own account and personal data across workspaces: profile, preferences, favorites, the daily plan, away periods, invitations to their address, connector connections, signed-in web sessions and connected apps (OAuth consents). These writes belong to the person, not to a workspace, so no workspace stream carries them (docs/me.md); declining an invitation is told to the workspace that sent it.",
    },
  ],
  operations: [
    ...profileOperations,
    ...meCatalogue,
    ...connectorConnectionOperations,
    ...invitationOperations,
    ...favoriteOperations,
    ...planOperations,
    ...awayOperations,
  ],
  problems: ME_PROBLEMS,
  eventData: ME_EVENT_DATA,
  events: [
    { kinds: ['invitation.declined'], emittedBy: '`me.invitations.decline`, in the invitation’s workspace' },
  ],
}

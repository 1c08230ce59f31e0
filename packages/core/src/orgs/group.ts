import type { ResourceGroup } from '../kernel/group.ts'
import { ORG_EVENT_DATA } from './event-data.ts'
import { memberWriteOperations } from './member-operations.ts'
import { orgsCatalogue } from './operations.ts'
import { ORG_PROBLEMS } from './problems.ts'

/** Workspaces and their members. */
export const orgsGroup: ResourceGroup = {
  name: 'orgs',
  tags: [
    {
      name: 'Orgs',
      description:
        'Workspaces, the tenant boundary. Every route under `/v1/orgs/{orgId}` needs an active membership.',
    },
    {
      name: 'Members',
      description: 'The people of a workspace (Actors) and their roles. Owners and admins manage them.',
    },
  ],
  operations: [...orgsCatalogue, ...memberWriteOperations],
  problems: ORG_PROBLEMS,
  eventData: ORG_EVENT_DATA,
  events: [
    {
      kinds: ['org.created'],
      emittedBy: '`orgs.create` (with `member.created` for the owner)',
    },
    {
      kinds: ['org.updated', 'org.archived', 'org.restored'],
      emittedBy: '`orgs.update`, `orgs.archive`, `orgs.restore`',
    },
    {
      kinds: ['member.created'],
      emittedBy: '`orgs.create` (the owner), `invitations.accept`',
    },
    {
      kinds: ['member.updated', 'member.deactivated', 'member.reactivated', 'member.removed'],
      emittedBy: '`members.*`',
    },
  ],
}

import type { ResourceGroup } from '../kernel/group.ts'
import { ACCESS_EVENT_DATA } from './event-data.ts'
import { removeMemberAccess } from './member-removal.ts'
import { accessCatalogue } from './operations.ts'
import { ACCESS_PROBLEMS } from './problems.ts'

/** Invitations, team membership and grants: who may do what. */
export const accessGroup: ResourceGroup = {
  name: 'access',
  tags: [
    { name: 'Invitations', description: 'Invite people by email with a single-use link.' },
    {
      name: 'Access',
      description:
        'Grants of the capability ladder (view < comment < contribute < assign < manage) and why an actor can do something.',
    },
  ],
  operations: accessCatalogue,
  problems: ACCESS_PROBLEMS,
  eventData: ACCESS_EVENT_DATA,
  events: [
    {
      kinds: ['invitation.created', 'invitation.resent', 'invitation.revoked'],
      emittedBy: '`invitations.create`, `invitations.resend`, `invitations.revoke`',
    },
    {
      kinds: ['team.member_added', 'team.member_removed'],
      emittedBy: '`teams.members.add`, `teams.members.remove`',
    },
    {
      kinds: ['grant.created', 'grant.updated', 'grant.deleted'],
      emittedBy: '`grants.*`',
    },
  ],
  // The removal of a member's grants orgs needs (orgs/member-removal.ts).
  fills: { 'orgs.memberRemoval': removeMemberAccess },
}

import type { ResourceGroup } from '../kernel/group.ts'
import { ADMIN_EVENT_DATA } from './event-data.ts'
import { adminOperations } from './operations.ts'
import { ADMIN_PROBLEMS } from './problems.ts'

/** Workspace administration: settings, email domains verified by DNS, the audit log. */
export const adminGroup: ResourceGroup = {
  name: 'admin',
  tags: [
    {
      name: 'Administration',
      description:
        'Workspace settings (default team, invitation policy), email domains verified by a DNS TXT record, ' +
        'and the audit log of administrative changes.',
    },
  ],
  operations: adminOperations,
  problems: ADMIN_PROBLEMS,
  eventData: ADMIN_EVENT_DATA,
  events: [
    { kinds: ['org_settings.updated'], emittedBy: '`orgs.settings.update` (resource id: the org)' },
    {
      kinds: ['domain.created', 'domain.verified', 'domain.check_failed', 'domain.deleted'],
      emittedBy: '`domains.create`, `domains.verify` (found or not), `domains.delete`',
    },
  ],
}

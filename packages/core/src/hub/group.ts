import type { ResourceGroup } from '../kernel/group.ts'
import { hubOperations } from './operations.ts'

/** The hub: reads across every workspace of the caller, one permission-scoped query per membership. */
export const hubGroup: ResourceGroup = {
  name: 'hub',
  tags: [
    {
      name: 'Hub',
      description:
        'Reads across all your workspaces (search, typeahead, inbox and its counts, activity, resolve, today, tasks, approvals, portfolio, updates, agenda, digest) and the cross-workspace inbox batch: one query per membership with your permissions there, merged, with a signed composite cursor and `partial` for workspaces that failed.',
    },
  ],
  operations: hubOperations,
  events: [],
}

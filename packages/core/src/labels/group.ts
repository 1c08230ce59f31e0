import type { ResourceGroup } from '../kernel/group.ts'
import { LABEL_EVENT_DATA } from './event-data.ts'
import { labelsCatalogue } from './operations.ts'
import { LABEL_PROBLEMS } from './problems.ts'
import { labelTargets } from './targets.ts'

/** Org and team labels. */
export const labelsGroup: ResourceGroup = {
  name: 'labels',
  tags: [
    {
      name: 'Labels',
      description:
        "Org and team labels, in groups of which a task carries one; adding and removing a task's labels.",
    },
  ],
  operations: labelsCatalogue,
  problems: LABEL_PROBLEMS,
  eventData: LABEL_EVENT_DATA,
  events: [
    {
      kinds: ['label.created', 'label.updated', 'label.archived', 'label.restored', 'label.deleted'],
      emittedBy: '`labels.*` (labels on tasks are `task.updated` with `changes.labelIds`)',
    },
  ],
  targets: labelTargets,
}

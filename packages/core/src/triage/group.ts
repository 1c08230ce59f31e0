import type { ResourceGroup } from '../kernel/group.ts'
import { triageSettingsOperations } from '../teams/settings-operations.ts'
import { TRIAGE_EVENT_DATA } from './event-data.ts'
import { triageOperations } from './operations.ts'
import { TRIAGE_PROBLEMS } from './problems.ts'
import { settleTriageDuplicate } from './service.ts'

/** Triage: a team's intake queue of requests, and the decisions taken on them. */
export const triageGroup: ResourceGroup = {
  name: 'triage',
  tags: [
    {
      name: 'Triage',
      description:
        "A team's intake: requests filed into its triage state (also by people outside the team), accepted, declined, marked duplicate or snoozed.",
      agentWork: true,
    },
  ],
  operations: [...triageOperations, ...triageSettingsOperations],
  problems: TRIAGE_PROBLEMS,
  eventData: TRIAGE_EVENT_DATA,
  events: [
    {
      kinds: ['task.triaged'],
      emittedBy:
        '`triage.accept`, `triage.decline`, `tasks.relations.add` with `duplicateOf` on a task in triage (with `outcome`, `requesterId`, `reason`, `duplicateOfId`; the move itself is a `task.updated`)',
    },
    { kinds: ['task.triage_snoozed'], emittedBy: '`triage.snooze`' },
  ],
  // Settling a triage item marked a duplicate (tasks/relations/relations.ts).
  fills: { 'tasks.triageDuplicate': settleTriageDuplicate },
}

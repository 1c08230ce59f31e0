import type { ResourceGroup } from '../kernel/group.ts'
import { cadenceOperations } from './cadence-operations.ts'
import { UPDATE_EVENT_DATA } from './event-data.ts'
import { updateOperations } from './operations.ts'
import { UPDATE_PROBLEMS } from './problems.ts'
import { updateTargets } from './targets.ts'

/** Status updates: narrative and health posted on a project, an initiative or a program, and the org feed. */
export const updatesGroup: ResourceGroup = {
  name: 'updates',
  tags: [
    {
      name: 'Status updates',
      description:
        'Narrative status with a health (on track, at risk, off track) posted on a project, an initiative or a program, with ' +
        'edit history, and one feed of every update of the org the caller can see.',
      agentWork: true,
    },
  ],
  operations: [...updateOperations, ...cadenceOperations],
  problems: UPDATE_PROBLEMS,
  eventData: UPDATE_EVENT_DATA,
  events: [
    {
      kinds: [
        'project_update.created',
        'project_update.updated',
        'project_update.archived',
        'project_update.restored',
        'project_update.deleted',
      ],
      emittedBy:
        "`projects.updates.create` and the `updates.*` item operations on a project's update; filed under the project's first team. `project_update.updated` carries the `changes`",
    },
    {
      kinds: ['update_settings.updated'],
      emittedBy: '`updateSettings.update` (resource: the org; org-level), with the `changes` per kind',
    },
    {
      kinds: ['update_request.created'],
      emittedBy:
        "`updateRequests.create` (resource: the record asked about; filed as that record's update events are)",
    },
  ],
  targets: updateTargets,
}

import type { ResourceGroup } from '../kernel/group.ts'
import { TEAM_EVENT_DATA } from './event-data.ts'
import { teamsCatalogue } from './operations.ts'
import { TEAM_PROBLEMS } from './problems.ts'
import { teamTargets } from './targets.ts'

/** Teams and their workflow states. */
export const teamsGroup: ResourceGroup = {
  name: 'teams',
  tags: [
    { name: 'Teams', description: 'Teams own tasks, task keys (`ENG-42`) and a workflow.', agentWork: true },
    {
      name: 'Workflow states',
      description:
        "A team's states, each in one category: triage, backlog, unstarted, started, completed, canceled.",
      agentWork: true,
    },
  ],
  operations: teamsCatalogue,
  problems: TEAM_PROBLEMS,
  eventData: TEAM_EVENT_DATA,
  events: [
    {
      kinds: ['team.created', 'team.updated', 'team.archived', 'team.restored'],
      emittedBy: '`teams.*`',
    },
    {
      kinds: [
        'workflow_state.created',
        'workflow_state.updated',
        'workflow_state.archived',
        'workflow_state.moved',
      ],
      emittedBy:
        "`states.*` (and `teams.create` for the default states, `teams.settings.update` for the `Triage` state); `workflow_state.moved` carries the team's new `order`",
    },
    { kinds: ['team_settings.updated'], emittedBy: '`teams.settings.update`' },
    { kinds: ['triage_settings.updated'], emittedBy: '`triageSettings.update`' },
  ],
  targets: teamTargets,
}

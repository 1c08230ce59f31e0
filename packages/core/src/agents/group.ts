import type { ResourceGroup } from '../kernel/group.ts'
import { readActorAgent } from './actor-lookup.ts'
import { AGENT_EVENT_DATA } from './event-data.ts'
import { agentsCatalogue } from './operations.ts'
import { AGENT_PROBLEMS } from './problems.ts'

/** AI agents, their work sessions and the approval gate. */
export const agentsGroup: ResourceGroup = {
  name: 'agents',
  tags: [
    { name: 'Agents', description: 'AI agents: Actors with their own grants and an approval policy.' },
    {
      name: 'Agent sessions',
      description: 'One run of an agent, with its append-only activity log; the agent acts through it.',
    },
    {
      name: 'Approvals',
      description:
        "Actions an agent's own policy, or a policy on a container, holds until a person approves, rejects or sends them back.",
    },
  ],
  operations: agentsCatalogue,
  problems: AGENT_PROBLEMS,
  eventData: AGENT_EVENT_DATA,
  events: [
    {
      kinds: ['agent.created', 'agent.updated', 'agent.deactivated', 'agent.reactivated'],
      emittedBy: '`agents.*`',
    },
    {
      kinds: ['agent_session.created', 'agent_session.updated'],
      emittedBy: '`agentSessions.create`, `.update`, `.cancel`, `.finish`',
    },
    {
      kinds: ['agent_activity.created'],
      emittedBy:
        '`agentSessions.activities.create`, `agentSessions.act`, `agentSessions.prompt`, `approvalRequests.requestChanges`',
    },
    {
      kinds: [
        'approval_request.created',
        'approval_request.approved',
        'approval_request.rejected',
        'approval_request.changes_requested',
        'approval_request.canceled',
      ],
      emittedBy:
        '`agentSessions.act` (held by policy), `approvalRequests.approve`, `.reject`, `.requestChanges`, `.cancel`',
    },
    {
      kinds: ['approval_policy.created', 'approval_policy.updated', 'approval_policy.deleted'],
      emittedBy: '`approvalPolicies.*`',
    },
  ],
  // The agent lookup access needs (access/actors.ts).
  fills: { 'access.agent': readActorAgent },
}

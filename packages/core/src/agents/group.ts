import type { ResourceGroup } from '../kernel/group.ts'
import { agentsCatalogue } from './operations.ts'

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
      description: "Actions an agent's policy holds until a person approves or rejects them.",
    },
  ],
  operations: agentsCatalogue,
  events: [
    {
      kinds: ['agent.created', 'agent.updated', 'agent.deactivated', 'agent.reactivated'],
      emittedBy: '`agents.*`',
    },
    {
      kinds: ['agent_session.created', 'agent_session.updated'],
      emittedBy: '`agentSessions.create`, `.cancel`, `.finish`',
    },
    {
      kinds: ['agent_activity.created'],
      emittedBy: '`agentSessions.activities.create`, `agentSessions.act`',
    },
    {
      kinds: ['approval_request.created', 'approval_request.approved', 'approval_request.rejected'],
      emittedBy: '`agentSessions.act` (held by policy), `approvals.approve`, `approvals.reject`',
    },
  ],
}

import { accessCatalogue } from './access/operations.ts'
import { agentsCatalogue } from './agents/operations.ts'
import { commentsCatalogue } from './comments/operations.ts'
import { reactionsCatalogue } from './comments/reaction-operations.ts'
import { cyclesCatalogue } from './cycles/operations.ts'
import type { AnyOperation } from './kernel/operation.ts'
import { labelsCatalogue } from './labels/operations.ts'
import { meCatalogue } from './me/operations.ts'
import { orgsCatalogue } from './orgs/operations.ts'
import { plansCatalogue } from './plans/operations.ts'
import { streamsCatalogue } from './streams/operations.ts'
import { configOperation } from './system/operations.ts'
import { taskBatchCatalogue } from './tasks/batch-operations.ts'
import { taskDepthCatalogue } from './tasks/depth-operations.ts'
import { taskHistoryCatalogue } from './tasks/history-operations.ts'
import { tasksCatalogue } from './tasks/operations.ts'
import { teamsCatalogue } from './teams/operations.ts'

/** The groups of the reference, in order, with what each covers. */
export const TAGS: Readonly<Record<string, string>> = {
  Service: 'The service itself: configuration and limits.',
  Orgs: 'Workspaces, the tenant boundary. Every route under `/v1/orgs/{orgId}` needs an active membership.',
  Members: 'The people of a workspace (Actors) and their roles. Owners and admins manage them.',
  Invitations: 'Invite people by email with a single-use link.',
  Access:
    'Grants of the capability ladder (view < comment < contribute < assign < manage) and why an actor can do something.',
  Teams: 'Teams own tasks, task keys (`ENG-42`) and a workflow.',
  'Workflow states':
    "A team's states, each in one category: triage, backlog, unstarted, started, completed, canceled.",
  Tasks: 'Units of work, with state, assignee, priority, estimate and due date.',
  Cycles:
    "A team's time windows (sprints): tasks planned in them, progress, completion with rollover, and the team's cadence.",
  Labels: "Org and team labels, in groups of which a task carries one; adding and removing a task's labels.",
  Comments: 'Threaded Markdown discussion on tasks: replies, edits with history, soft deletion, resolution.',
  Reactions: 'Emoji reactions to tasks and comments.',
  Agents: 'AI agents: Actors with their own grants and an approval policy.',
  'Agent sessions': 'One run of an agent, with its append-only activity log; the agent acts through it.',
  Approvals: "Actions an agent's policy holds until a person approves or rejects them.",
  Organize:
    'Names resolved to ids, and plans that apply many changes in one transaction (the MCP `organize` tool).',
  Me: "The caller's own account: signed-in web sessions and connected apps (OAuth consents).",
  Streams:
    'Live updates: every change as an event, by polling here or over server-sent events at `/v1/stream/sse` (see docs/events.md).',
}

/** Every operation of the API, in documentation order. Routes, validation, OpenAPI and docs all read this. */
export const OPERATIONS: readonly AnyOperation[] = [
  configOperation,
  ...orgsCatalogue,
  ...accessCatalogue,
  ...teamsCatalogue,
  ...tasksCatalogue,
  ...taskBatchCatalogue,
  ...cyclesCatalogue,
  ...labelsCatalogue,
  ...commentsCatalogue,
  ...reactionsCatalogue,
  ...taskHistoryCatalogue,
  ...taskDepthCatalogue,
  ...agentsCatalogue,
  ...plansCatalogue,
  ...meCatalogue,
  ...streamsCatalogue,
]

const seen = new Set<string>()
for (const op of OPERATIONS) {
  const route = `${op.method} ${op.path}`
  if (seen.has(op.id) || seen.has(route)) throw new Error(`Duplicate operation ${op.id} (${route})`)
  if (!(op.tag in TAGS)) throw new Error(`Operation ${op.id} has the undocumented tag ${op.tag}`)
  seen.add(op.id)
  seen.add(route)
}

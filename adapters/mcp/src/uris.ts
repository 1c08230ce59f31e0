import type { OrgId } from '@workgraph/core'

/** What a `workgraph://` URI names. */
export type ResourceRef =
  | { kind: 'workspace'; orgId: OrgId }
  | { kind: 'team'; orgId: OrgId; key: string }
  | { kind: 'task'; orgId: OrgId; key: string }
  | { kind: 'session'; orgId: OrgId; id: string }
  | { kind: 'cycle'; orgId: OrgId; key: string; number: string }
  | { kind: 'project'; orgId: OrgId; id: string }
  | { kind: 'milestone'; orgId: OrgId; id: string }

export const RESOURCE_TEMPLATES = [
  { uriTemplate: 'workgraph://orgs/{orgId}', name: 'workspace', title: 'A workspace' },
  { uriTemplate: 'workgraph://orgs/{orgId}/teams/{teamKey}', name: 'team', title: 'A team, by key' },
  { uriTemplate: 'workgraph://orgs/{orgId}/tasks/{taskKey}', name: 'task', title: 'A task, by key (ENG-42)' },
  {
    uriTemplate: 'workgraph://orgs/{orgId}/teams/{teamKey}/cycles/{number}',
    name: 'cycle',
    title: "A team's cycle, by number; subscribers hear of changes to it and to its tasks",
  },
  {
    uriTemplate: 'workgraph://orgs/{orgId}/projects/{projectId}',
    name: 'project',
    title: 'A project, by id; subscribers hear of changes to it, its milestones, updates, comments and tasks',
  },
  {
    uriTemplate: 'workgraph://orgs/{orgId}/milestones/{milestoneId}',
    name: 'milestone',
    title: 'A project milestone, by id; subscribers hear of changes to it, its comments and tasks',
  },
  {
    uriTemplate: 'workgraph://orgs/{orgId}/agent-sessions/{agentSessionId}',
    name: 'agent-session',
    title: 'An agent work session',
  },
] as const

const PATTERN =
  /^workgraph:\/\/orgs\/(org_[0-9A-HJKMNP-TV-Z]{26})(?:\/(teams|tasks|agent-sessions|projects|milestones)\/([^/?#]+))?$/

const CYCLE_PATTERN =
  /^workgraph:\/\/orgs\/(org_[0-9A-HJKMNP-TV-Z]{26})\/teams\/([^/?#]+)\/cycles\/([1-9][0-9]{0,8})$/

export function parseUri(uri: string): ResourceRef | null {
  const cycle = CYCLE_PATTERN.exec(uri)
  if (cycle)
    return { kind: 'cycle', orgId: cycle[1] as OrgId, key: decodeURIComponent(cycle[2]!), number: cycle[3]! }
  const m = PATTERN.exec(uri)
  if (!m) return null
  const orgId = m[1] as OrgId
  const value = m[3] ? decodeURIComponent(m[3]) : ''
  if (!m[2]) return { kind: 'workspace', orgId }
  if (m[2] === 'teams') return { kind: 'team', orgId, key: value }
  if (m[2] === 'tasks') return { kind: 'task', orgId, key: value }
  if (m[2] === 'projects') return { kind: 'project', orgId, id: value }
  if (m[2] === 'milestones') return { kind: 'milestone', orgId, id: value }
  return { kind: 'session', orgId, id: value }
}

/**
 * The caller's unread notifications across their workspaces. A fixed URI (listed by
 * `resources/list`, not a template): it names no workspace, so `parseUri` does not take it.
 */
export const INBOX_URI = 'workgraph://me/inbox'

export const workspaceUri = (orgId: string) => `workgraph://orgs/${orgId}`
export const teamUri = (orgId: string, key: string) =>
  `workgraph://orgs/${orgId}/teams/${encodeURIComponent(key)}`
export const taskUri = (orgId: string, key: string) =>
  `workgraph://orgs/${orgId}/tasks/${encodeURIComponent(key)}`
export const cycleUri = (orgId: string, key: string, number: number) =>
  `workgraph://orgs/${orgId}/teams/${encodeURIComponent(key)}/cycles/${number}`
export const projectUri = (orgId: string, id: string) => `workgraph://orgs/${orgId}/projects/${id}`
export const milestoneUri = (orgId: string, id: string) => `workgraph://orgs/${orgId}/milestones/${id}`

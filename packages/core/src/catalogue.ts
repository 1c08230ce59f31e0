import type { AnyOperation } from './operation.ts'
import { meCatalogue } from './operations/me.ts'
import { orgsCatalogue } from './operations/orgs.ts'
import { configOperation } from './operations/system.ts'
import { tasksCatalogue } from './operations/tasks.ts'
import { teamsCatalogue } from './operations/teams.ts'

/** The groups of the reference, in order, with what each covers. */
export const TAGS: Readonly<Record<string, string>> = {
  Service: 'The service itself: configuration and limits.',
  Orgs: 'Workspaces, the tenant boundary. Every route under `/v1/orgs/{orgId}` needs an active membership.',
  Members: 'The people of a workspace (Actors) and their roles.',
  Teams: 'Teams own tasks, task keys (`ENG-42`) and a workflow.',
  'Workflow states':
    "A team's states, each in one category: triage, backlog, unstarted, started, completed, canceled.",
  Tasks: 'Units of work, with state, assignee, priority, estimate and due date.',
  Me: "The caller's own account: signed-in web sessions and connected apps (OAuth consents).",
}

/** Every operation of the API, in documentation order. Routes, validation, OpenAPI and docs all read this. */
export const OPERATIONS: readonly AnyOperation[] = [
  configOperation,
  ...orgsCatalogue,
  ...teamsCatalogue,
  ...tasksCatalogue,
  ...meCatalogue,
]

const seen = new Set<string>()
for (const op of OPERATIONS) {
  const route = `${op.method} ${op.path}`
  if (seen.has(op.id) || seen.has(route)) throw new Error(`Duplicate operation ${op.id} (${route})`)
  if (!(op.tag in TAGS)) throw new Error(`Operation ${op.id} has the undocumented tag ${op.tag}`)
  seen.add(op.id)
  seen.add(route)
}

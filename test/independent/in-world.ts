import { OPERATIONS } from '@workgraph/core'
import { swapExampleIds } from '../support/example-world.ts'

/**
 * What a request of Portman's collection needs of the sample world beyond its defaults, applied to
 * its contract request and to each of its variations alike (docs/testing.md, "An independent
 * fuzzer"). Portman sends every path variable of one name with the same value and every request as
 * the owner; some operations need another record of the world or another caller (the same
 * knowledge as `IDS` in test/streams/every-write-emits.test.ts).
 */
type Json = Record<string, any>

interface InWorld {
  /** Path variables read from another variable of the world: `{ teamId: 'otherTeamId' }`. */
  path?: Record<string, string>
  /** Sent with another caller's token: the world's variable holding it. */
  token?: string
  /** Fields of the request example (`task.key`) whose value is replaced by a variable of the world. */
  body?: Record<string, string>
  /**
   * The document's request example sent as it is: Portman reads an example whose one key is `value`
   * as an OpenAPI Example Object and sends what that key holds (`{ externalId }` for `{ value: {
   * externalId } }`), a body the schema refuses.
   */
  wholeExample?: boolean
  /** Sent after the requests that leave the world as it was (collection.ts, `deletionsLast`). */
  settles?: boolean
  /** Optional query parameters the request leaves out, sent with these values (`{{taskId}}`). */
  query?: Record<string, string>
}

const IN_WORLD: Record<string, InWorld> = {
  // The owner cannot leave their workspace: a member of the world's own does.
  'orgs.leave': { token: 'leaverToken' },
  // The invitation and its token are the invitee's, sent by mail.
  'invitations.accept': { token: 'inviteeToken', body: { token: 'invitationToken' } },
  'me.invitations.decline': { token: 'inviteeToken', path: { invitationId: 'inviteeInvitationId' } },
  // A target type without its id is the org's: a task needs the task.
  'access.explain': { query: { targetId: '{{taskId}}' } },
  'access.holders': { query: { targetId: '{{taskId}}' } },
  // The folder's first request makes a subtask of the sample task: archive it with the task.
  'tasks.archive': { query: { children: 'archive' } },
  // The example names its task by key, and task keys are per workspace.
  'me.dailyPlan.items.create': { body: { 'task.key': 'taskKey' } },
  // The sample project spans the sample team already; add (and then remove) the other one.
  'projects.teams.add': { path: { teamId: 'otherTeamId' } },
  'projects.teams.remove': { path: { teamId: 'otherTeamId' } },
  // The sample task carries the sample label; the containers take org labels only.
  'tasks.labels.add': { path: { labelId: 'otherLabelId' } },
  'projects.labels.add': { path: { labelId: 'orgLabelId' } },
  'programs.labels.add': { path: { labelId: 'orgLabelId' } },
  'initiatives.labels.add': { path: { labelId: 'orgLabelId' } },
  'projects.labels.remove': { path: { labelId: 'orgLabelId' } },
  'programs.labels.remove': { path: { labelId: 'orgLabelId' } },
  'initiatives.labels.remove': { path: { labelId: 'orgLabelId' } },
  // The other task is not linked to the sample task yet.
  'tasks.blockers.add': { path: { blockerId: 'otherTaskId' } },
  'tasks.relations.add': { path: { relatedTaskId: 'otherTaskId' } },
  // The related task stays in the team's default column; its example moves it after the other task.
  'tasks.move': { path: { taskId: 'relatedTaskId' } },
  // Moving the last of two held projects before the first.
  'programs.projects.move': { path: { projectId: 'secondProgramProjectId' } },
  'initiatives.projects.move': {
    path: { initiativeId: 'orderedInitiativeId', projectId: 'orderedProjectId' },
  },
  // Each triage decision on a request of its own (a decided one is no longer waiting).
  'triage.accept': { path: { taskId: 'triageTaskId' } },
  'triage.decline': { path: { taskId: 'declinedTriageTaskId' } },
  'triage.snooze': { path: { taskId: 'snoozedTriageTaskId' } },
  // Cancelling and finishing a session; approving, rejecting, withdrawing a request and asking for
  // changes to one: one each.
  'agentSessions.finish': { path: { agentSessionId: 'finishedSessionId' } },
  'approvalRequests.requestChanges': { path: { approvalRequestId: 'changedApprovalRequestId' } },
  'approvalRequests.reject': { path: { approvalRequestId: 'rejectedApprovalRequestId' } },
  'approvalRequests.cancel': { path: { approvalRequestId: 'withdrawnApprovalRequestId' } },
  // Its example turns the provider off: after the requests that connect through it.
  'connectors.providers.update': { settles: true },
  'records.properties.set': { wholeExample: true },
  // The sample import has run (fuzz-world.ts): cancel one still queued.
  'imports.cancel': { path: { importId: 'queuedImportId' } },
  // Only a completed cycle can be archived.
  'cycles.archive': { path: { cycleId: 'completedCycleId' } },
  'cycles.restore': { path: { cycleId: 'completedCycleId' } },
}

const ROUTES = new Map(OPERATIONS.map((op) => [`${op.method} ${op.path}`, op]))

/** The catalogue operation a Postman request stands for, by its method and path. */
export function operationOf(item: Json): (typeof OPERATIONS)[number] | undefined {
  const segments: string[] = item.request?.url?.path ?? []
  const path = `/${segments.map((s) => (s.startsWith(':') ? `{${s.slice(1)}}` : s)).join('/')}`
  return ROUTES.get(`${item.request?.method} ${path}`)
}

/** `folder` with every request that needs more of the world than its defaults given it. */
export function inWorld(folder: Json): Json {
  return {
    ...folder,
    item: (folder.item ?? []).map((item: Json) => {
      if (item.item) return inWorld(item)
      const op = operationOf(item)
      const needs = op && IN_WORLD[op.id]
      return needs ? withNeeds(item, op.id, op.examples?.request, needs) : item
    }),
  }
}

function withNeeds(item: Json, id: string, example: unknown, needs: InWorld): Json {
  const request = structuredClone(item.request)
  for (const variable of request.url?.variable ?? [])
    if (needs.path?.[variable.key]) variable.value = `{{${needs.path[variable.key]}}}`
  if (needs.token)
    request.auth = { type: 'bearer', bearer: [{ key: 'token', value: `{{${needs.token}}}`, type: 'string' }] }
  // The example's value alone is replaced: a variation that fuzzed the field keeps what it sends.
  for (const [field, variable] of Object.entries(needs.body ?? {})) {
    const literal = field.split('.').reduce<any>((value, key) => value?.[key], example)
    if (typeof literal !== 'string') throw new Error(`${id}: its request example has no ${field}`)
    if (typeof request.body?.raw === 'string')
      request.body.raw = request.body.raw.replaceAll(
        JSON.stringify(literal),
        JSON.stringify(`{{${variable}}}`),
      )
  }
  // Only a body that is the example's `value` (Portman's reading): a variation keeps what it sends.
  const unwrapped = (example as { value?: unknown } | undefined)?.value
  if (needs.wholeExample && typeof request.body?.raw === 'string' && unwrapped !== undefined) {
    let sent: unknown
    try {
      sent = JSON.parse(request.body.raw)
    } catch {}
    if (JSON.stringify(sent) === JSON.stringify(unwrapped))
      request.body.raw = JSON.stringify(
        swapExampleIds(example, (prefix, rank) => `{{${prefix}_${rank}}}`),
        null,
        2,
      )
  }
  // Only a parameter left out: a variation that fuzzed it sends it.
  for (const parameter of request.url?.query ?? [])
    if (needs.query?.[parameter.key] && parameter.disabled) {
      parameter.value = needs.query[parameter.key]
      parameter.disabled = false
    }
  return { ...item, request }
}

/** Whether a request changes the world so that later ones would fail, beyond what its verb says. */
export function settles(item: Json): boolean {
  return Boolean(IN_WORLD[operationOf(item)?.id ?? '']?.settles)
}

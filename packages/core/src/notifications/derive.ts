import type { ApprovalRequest } from '../access/schemas.ts'
import type { Capability } from '../kernel/capabilities.ts'
import type { StoredEvent } from '../kernel/events/events.ts'
import type { ActorId, InitiativeId, OrgId, ProgramId, ProjectId, TaskId, TeamId } from '../kernel/ids.ts'
import type { CapabilityTarget } from '../kernel/permissions.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Store } from '../kernel/storage.ts'
import { allFollowers } from '../projects/followers.ts'
import type { Task } from '../tasks/schemas.ts'
import { mentionedHandles } from './mentions.ts'
import type { NotificationKind, NotificationRecordType } from './schemas.ts'

/** Someone who may be notified of an event, and why; the notifier then checks settings and rights. */
export interface Candidate {
  recipientId: ActorId
  kind: NotificationKind
  record: { type: NotificationRecordType; id: string }
  summary: string
  /** What the recipient must be able to do on `target` (view, or decide an approval). */
  target: CapabilityTarget
  capability: Capability
  /** Reaches the event's actor too: a rule's author may name themselves in its `notify` act. */
  toActor?: true
}

/** What derivation reads besides the event: who is mentioned, who follows a record. */
export interface DeriveLookups {
  store: Store
  orgId: OrgId
  /** Active people whose handle is one of these. */
  byHandle(handles: Set<string>): Promise<ActorId[]>
  /** Every active person in the org (approval deciders are found among them). */
  everyone(): Promise<ActorId[]>
}

/** When one event gives someone several reasons, the first of this order wins (one notification per event). */
export const KIND_PRIORITY: readonly NotificationKind[] = [
  'assigned',
  'triaged',
  'mentioned',
  'triageRequested',
  'approvalRequested',
  'updateRequested',
  'ruleNotified',
  'commented',
  'stateChanged',
  'updatePosted',
]

type Deriver = (event: StoredEvent, look: DeriveLookups) => Promise<Candidate[]>
type Change = { before: unknown; after: unknown } | undefined

export const taskRef = (task: Pick<Task, 'id' | 'key' | 'title'>) => ({
  record: { type: 'task' as const, id: task.id },
  summary: `${task.key} ${task.title}`,
  target: { type: 'task' as const, id: task.id },
  capability: 'view' as const,
})

async function taskFollowers(store: Store, orgId: OrgId, taskId: TaskId): Promise<ActorId[]> {
  const rows = await store.taskSubscribers.list(orgId, taskId, {
    sort: 'actorId',
    direction: 'asc',
    after: null,
    limit: 10_000,
  })
  return rows.map((r) => r.actorId as ActorId)
}

const as =
  (kind: NotificationKind, ref: Omit<Candidate, 'recipientId' | 'kind'>) => (recipientId: ActorId) => ({
    recipientId,
    kind,
    ...ref,
  })

/**
 * Records that take status updates and followers, by type: how to name one (null when it is gone).
 * A new followable kind adds an entry here and a `<type>_update.created` line in DERIVERS.
 */
export const FOLLOWED: Record<
  'project' | 'program' | 'initiative',
  (store: Store, orgId: OrgId, id: string) => Promise<{ name: string } | null>
> = {
  project: (store, orgId, id) => store.projects.get(orgId, id as ProjectId, UNSCOPED),
  program: (store, orgId, id) => store.programs.get(orgId, id as ProgramId),
  initiative: (store, orgId, id) => store.initiatives.get(orgId, id as InitiativeId, UNSCOPED),
}

/** A status update on a followed record: its followers, and whoever its body mentions. */
function updatePosted(type: keyof typeof FOLLOWED): Deriver {
  return async (event, look) => {
    const update = event.data.update as { subjectId: string; body: string }
    const subject = await FOLLOWED[type](look.store, look.orgId, update.subjectId)
    if (!subject) return []
    const ref = {
      record: { type, id: update.subjectId },
      summary: subject.name,
      target: { type, id: update.subjectId },
      capability: 'view' as const,
    }
    return [
      ...(await look.byHandle(mentionedHandles(update.body))).map(as('mentioned', ref)),
      ...(await allFollowers(look.store, look.orgId, type, update.subjectId)).map(as('updatePosted', ref)),
    ]
  }
}

/**
 * The events that notify someone, each with who and why. A new followable record adds its
 * `<type>_update.created: updatePosted('<type>')` here and an entry in FOLLOWED.
 */
const DERIVERS: Record<string, Deriver> = {
  async 'task.created'(event, look) {
    const task = event.data.task as Task
    const ref = taskRef(task)
    return [
      ...(task.assigneeId ? [as('assigned', ref)(task.assigneeId)] : []),
      ...(await look.byHandle(mentionedHandles(task.description))).map(as('mentioned', ref)),
      ...(await triageHandlers(look, task)).map(as('triageRequested', ref)),
    ]
  },
  // The requester learns what became of their request; a decline carries its reason.
  async 'task.triaged'(event) {
    const task = event.data.task as Task
    const outcome = event.data.outcome as string
    const reason = event.data.reason as string | null
    const ref = taskRef(task)
    const said = outcome === 'declined' && reason ? `declined: ${reason}` : outcome
    const summary = `${ref.summary} (${said})`.slice(0, 500)
    return [as('triaged', { ...ref, summary })(event.data.requesterId as ActorId)]
  },
  async 'task.updated'(event, look) {
    const task = event.data.task as Task
    const changes = (event.data.changes ?? {}) as Record<string, Change>
    const ref = taskRef(task)
    const out: Candidate[] = []
    const assignee = changes.assigneeId?.after
    if (typeof assignee === 'string') out.push(as('assigned', ref)(assignee as ActorId))
    if (changes.description) {
      const before = mentionedHandles(changes.description.before as string | null)
      const added = new Set(
        [...mentionedHandles(changes.description.after as string | null)].filter((h) => !before.has(h)),
      )
      out.push(...(await look.byHandle(added)).map(as('mentioned', ref)))
    }
    if (changes.stateId)
      out.push(...(await taskFollowers(look.store, look.orgId, task.id)).map(as('stateChanged', ref)))
    return out
  },
  async 'comment.created'(event, look) {
    const comment = event.data.comment as { body: string }
    const task = await look.store.tasks.get(look.orgId, event.data.taskId as TaskId, UNSCOPED)
    if (!task) return []
    const ref = taskRef(task)
    return [
      ...(await look.byHandle(mentionedHandles(comment.body))).map(as('mentioned', ref)),
      ...(await taskFollowers(look.store, look.orgId, task.id)).map(as('commented', ref)),
    ]
  },
  // A rule's `notify` act: the recipients were resolved when the rule ran, its message leads.
  async 'automation_rule.notified'(event, look) {
    const data = event.data as { taskId: TaskId; recipientIds: ActorId[]; message: string }
    const task = await look.store.tasks.get(look.orgId, data.taskId, UNSCOPED)
    if (!task) return []
    const ref = taskRef(task)
    const summary = `${data.message} (${ref.summary})`
    return data.recipientIds.map((id) => ({ ...as('ruleNotified', { ...ref, summary })(id), toActor: true }))
  },
  'project_update.created': updatePosted('project'),
  'program_update.created': updatePosted('program'),
  'initiative_update.created': updatePosted('initiative'),
  // The lead or owner asked; the notifier still checks they can view the record.
  async 'update_request.created'(event) {
    const request = event.data.updateRequest as {
      subjectType: keyof typeof FOLLOWED
      subjectId: string
      recipientId: ActorId
    }
    const ref = {
      record: { type: request.subjectType, id: request.subjectId },
      summary: `Update requested: ${event.data.name as string}`.slice(0, 500),
      target: { type: request.subjectType, id: request.subjectId },
      capability: 'view' as const,
    }
    return [as('updateRequested', ref)(request.recipientId)]
  },
  async 'approval_request.created'(event, look) {
    const request = event.data.approvalRequest as ApprovalRequest
    // Deciding needs the capability the action needs, where it would act (the task, else the org).
    const taskId = (request.input.params as Record<string, unknown> | undefined)?.taskId
    const target: CapabilityTarget =
      typeof taskId === 'string' ? { type: 'task', id: taskId } : { type: 'org' }
    const ref = {
      record: { type: 'approval_request' as const, id: request.id },
      summary: `Approve ${request.operationId}`,
      target,
      capability: request.capability ?? 'contribute',
    }
    return (await look.everyone()).map(as('approvalRequested', ref))
  },
}

/** The people to notify of a new triage item: its team's triage handlers, when they are to be notified. */
async function triageHandlers(look: DeriveLookups, task: Task): Promise<ActorId[]> {
  if (task.stateCategory !== 'triage') return []
  const settings = await look.store.teamSettings.get(look.orgId, task.teamId as TeamId)
  if (settings?.responsibility !== 'fixed' || settings.action !== 'notify') return []
  return settings.memberIds as ActorId[]
}

/** The candidates of one event, in priority order per recipient; none for events that notify nobody. */
export async function candidatesOf(event: StoredEvent, look: DeriveLookups): Promise<Candidate[]> {
  const derive = DERIVERS[event.kind]
  if (!derive) return []
  const found = await derive(event, look)
  return found.sort((a, b) => KIND_PRIORITY.indexOf(a.kind) - KIND_PRIORITY.indexOf(b.kind))
}

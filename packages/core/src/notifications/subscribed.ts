import type { StoredEvent } from '../kernel/events/events.ts'
import type { ActorId, TaskId } from '../kernel/ids.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import type { Task } from '../tasks/schemas.ts'
import { type Candidate, type DeriveLookups, FOLLOWED, taskRef } from './derive.ts'
import type { SubscriptionKind, SubscriptionTarget } from './follow-schemas.ts'

type Target = { type: SubscriptionTarget; id: string }

/** The containers a task's notification rules can name: its team, its cycle, its project. */
const containersOfTask = (task: Pick<Task, 'teamId' | 'cycleId' | 'projectId'>): Target[] => [
  { type: 'team', id: task.teamId },
  ...(task.cycleId ? [{ type: 'cycle' as const, id: task.cycleId }] : []),
  ...(task.projectId ? [{ type: 'project' as const, id: task.projectId }] : []),
]

/** What an event offers notification rules: the kind it is, where it happened, and what it is about. */
async function followable(
  event: StoredEvent,
  look: DeriveLookups,
): Promise<{
  kind: SubscriptionKind
  targets: Target[]
  ref: Omit<Candidate, 'recipientId' | 'kind'>
} | null> {
  switch (event.kind) {
    case 'task.created': {
      const task = event.data.task as Task
      return { kind: 'taskCreated', targets: containersOfTask(task), ref: taskRef(task) }
    }
    case 'task.updated': {
      if (!(event.data.changes as Record<string, unknown> | undefined)?.stateId) return null
      const task = event.data.task as Task
      return { kind: 'stateChanged', targets: containersOfTask(task), ref: taskRef(task) }
    }
    case 'comment.created': {
      const task = await look.store.tasks.get(look.orgId, event.data.taskId as TaskId, UNSCOPED)
      return task ? { kind: 'commented', targets: containersOfTask(task), ref: taskRef(task) } : null
    }
    case 'project_update.created':
    case 'program_update.created':
    case 'initiative_update.created': {
      const type = event.kind.split('_')[0] as keyof typeof FOLLOWED
      const subjectId = (event.data.update as { subjectId: string }).subjectId
      const subject = await FOLLOWED[type](look.store, look.orgId, subjectId)
      if (!subject) return null
      return {
        kind: 'updatePosted',
        targets: [{ type, id: subjectId }],
        ref: {
          record: { type, id: subjectId },
          summary: subject.name,
          target: { type, id: subjectId },
          capability: 'view',
        },
      }
    }
    default:
      return null
  }
}

/**
 * Recipients added by notification rules: the members whose active rule on one of the event's containers
 * asks for its kind. They come after the direct reasons, so an assignee or mentioned person keeps
 * that reason; the notifier then checks settings, mutes and the right to view as for anyone.
 */
export async function subscribedCandidates(event: StoredEvent, look: DeriveLookups): Promise<Candidate[]> {
  const found = await followable(event, look)
  if (!found) return []
  const rules = await look.store.notificationSubscriptions.onTargets(look.orgId, found.targets)
  return rules
    .filter((r) => r.active && r.kinds.includes(found.kind))
    .map((r) => ({ recipientId: r.memberId as ActorId, kind: found.kind, ...found.ref }))
}

import type { ActorId, AutomationRuleId, TaskId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { requireTask } from '../tasks/require-task.ts'
import type { AutomationRule, RuleAction } from './schemas.ts'

type NotifyValue = Extract<RuleAction, { type: 'notify' }>['value']

/** Subscribers a `notify` act reaches at most; a task followed by more tells the first ones. */
const SUBSCRIBERS_LIMIT = 500

/**
 * A rule's `notify` act, as its author: telling people about a task is what a comment on it does,
 * so the author needs `comment` on the task. The recipients are resolved now (the assignee and the
 * subscribers as they are when the rule runs) and written into an `automation_rule.notified` event;
 * the notifier turns it into `ruleNotified` notifications for those who can view the task, so they
 * reach the inbox, streams, MCP and mail like any other.
 */
export async function notify(
  acting: OperationContext,
  rule: AutomationRule,
  taskId: TaskId,
  value: NotifyValue,
): Promise<void> {
  await acting.require('comment', { type: 'task', id: taskId })
  const task = await requireTask(acting, taskId)
  const recipients = new Set<ActorId>()
  for (const to of value.to) {
    if (to === 'assignee') {
      if (task.assigneeId) recipients.add(task.assigneeId as ActorId)
    } else if (to === 'subscribers') {
      const page = { sort: 'actorId', direction: 'asc', after: null, limit: SUBSCRIBERS_LIMIT } as const
      for (const s of await acting.store.taskSubscribers.list(task.orgId, task.id, page))
        recipients.add(s.actorId as ActorId)
    } else recipients.add(to as ActorId)
  }
  // Agents have no inbox: only members are notified.
  const recipientIds = [...recipients].filter((id) => id.startsWith('mem_'))
  if (recipientIds.length === 0) return
  acting.emit({
    kind: 'automation_rule.notified',
    resourceType: 'automation_rule',
    resourceId: rule.id,
    teamId: rule.teamId,
    data: { id: rule.id as AutomationRuleId, taskId: task.id, recipientIds, message: value.message },
  })
}

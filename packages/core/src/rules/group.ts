import type { ResourceGroup } from '../kernel/group.ts'
import { RULE_EVENT_DATA } from './event-data.ts'
import { ruleOperations } from './operations.ts'

/** Automation rules: a team's "when this happens to a task, and it is in this list, do that". */
export const rulesGroup: ResourceGroup = {
  name: 'rules',
  tags: [
    {
      name: 'Automation rules',
      description:
        'Rules a team’s managers define: a trigger (task created, state entered, label added, assignee changed, due date passed, linked task’s state changed), conditions (a `tasks.list` query, as a saved view stores it) and actions (set state, assignee, priority, project or cycle, add a label, comment, notify), run by the engine after each change commits, exactly once, with the author’s rights, and a run log per rule (docs/rules.md).',
    },
  ],
  operations: ruleOperations,
  eventData: RULE_EVENT_DATA,
  events: [
    {
      kinds: ['automation_rule.created', 'automation_rule.updated', 'automation_rule.deleted'],
      emittedBy:
        '`teams.automationRules.create`, `automationRules.update`, `automationRules.delete`, filed under the rule’s team. What a rule does emits the events of the operations it runs (`task.updated`, `comment.created`, …), with the author as `actorId`',
    },
    {
      kinds: ['automation_rule.notified'],
      emittedBy:
        'a rule’s `notify` act (the author as `actorId`), filed under the rule’s team; the notifier makes it `ruleNotified` notifications',
    },
    {
      kinds: ['task.due_date_passed'],
      emittedBy:
        '`engine.runRules()` (actor null), once per open task and due date, for teams with an enabled `dueDatePassed` rule',
    },
  ],
}

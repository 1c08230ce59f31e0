import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Task } from '../tasks/schemas.ts'
import { AutomationRule } from './schemas.ts'

const RuleIdField = IdSchema('AutomationRuleId')

/** The `data` of automation rule events, as service.ts emits it. */
export const RULE_EVENT_DATA: Record<string, TSchema> = {
  'automation_rule.created': Type.Object({ id: RuleIdField, rule: AutomationRule }),
  'automation_rule.updated': Type.Object({ id: RuleIdField, rule: AutomationRule, changes: EventChanges }),
  'automation_rule.deleted': Type.Object({ id: RuleIdField, name: Type.String() }),
  'automation_rule.notified': Type.Object({
    id: RuleIdField,
    taskId: IdSchema('TaskId'),
    recipientIds: Type.Array(IdSchema('MemberId'), {
      description: 'Who the `notify` act named, resolved when it ran.',
    }),
    message: Type.String(),
  }),
  'task.due_date_passed': Type.Object({
    task: Task,
    dueDate: Type.String({ format: 'date', description: 'The due date that passed.' }),
    passedAt: Type.String({ format: 'date-time', description: 'When it passed: the end of that day, UTC.' }),
  }),
}

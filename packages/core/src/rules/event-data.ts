import { type TSchema, Type } from '@sinclair/typebox'
import { EventChanges } from '../kernel/event-data.ts'
import { IdSchema } from '../kernel/ids.ts'
import { AutomationRule } from './schemas.ts'

const RuleIdField = IdSchema('AutomationRuleId')

/** The `data` of automation rule events, as service.ts emits it. */
export const RULE_EVENT_DATA: Record<string, TSchema> = {
  'automation_rule.created': Type.Object({ id: RuleIdField, rule: AutomationRule }),
  'automation_rule.updated': Type.Object({ id: RuleIdField, rule: AutomationRule, changes: EventChanges }),
  'automation_rule.deleted': Type.Object({ id: RuleIdField, name: Type.String() }),
}

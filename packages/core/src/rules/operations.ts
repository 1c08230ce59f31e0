import { Type } from '@sinclair/typebox'
import type { AutomationRuleId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { ruleExamples } from './examples.ts'
import { AutomationRule, AutomationRun, CreateRuleBody, UpdateRuleBody } from './schemas.ts'
import { createRule, deleteRule, listRules, listRuns, requireRule, updateRule } from './service.ts'

const teamRules = '/v1/orgs/{orgId}/teams/{teamId}/automation-rules'
const rulePath = '/v1/orgs/{orgId}/automation-rules/{automationRuleId}'
const team = Type.Object(
  { orgId: IdSchema('OrgId'), teamId: IdSchema('TeamId') },
  { additionalProperties: false },
)
const item = Type.Object(
  { orgId: IdSchema('OrgId'), automationRuleId: IdSchema('AutomationRuleId') },
  { additionalProperties: false },
)
const paging = Type.Object(PageQuery, { additionalProperties: false })
const onTeam = ({ params }: { params: { teamId?: unknown } }) => ({
  type: 'team' as const,
  id: params.teamId as string,
})
const byRule = '`manage` on the rule’s team (a team the caller cannot view hides its rules: 404)'

export const ruleOperations: AnyOperation[] = [
  declareOperation({
    id: 'teams.automationRules.list',
    method: 'GET',
    path: teamRules,
    tag: 'Automation rules',
    scope: 'work:read',
    summary: 'List a team’s automation rules',
    description:
      'The team’s automation rules, enabled or not, in creation order. Only the team’s managers read them.',
    params: team,
    query: paging,
    response: PageOf(AutomationRule, 'AutomationRule'),
    status: 200,
    capability: 'manage',
    target: onTeam,
    errors: ['not_found'],
    examples: ruleExamples.list,
    run: (ctx, { params, query }) => listRules(ctx, params.teamId as TeamId, query as never),
  }),
  declareOperation({
    id: 'teams.automationRules.create',
    method: 'POST',
    path: teamRules,
    tag: 'Automation rules',
    scope: 'work:write',
    summary: 'Create an automation rule',
    description:
      'When a task of the team changes as `trigger` says and is in the `conditions` list (the body of `tasks.query` without paging, checked like a saved view’s filter: a composed `filter` past its bounds is 422 `rule_violated`), the engine does `actions` to it, after the change commits, once however many instances run. It acts as the caller, who becomes the rule’s author: with their capabilities at the time it runs (a right they lost makes the run fail, doing nothing), the history naming the rule in `automation`. Emits `automation_rule.created`.',
    params: team,
    body: CreateRuleBody,
    response: AutomationRule,
    status: 201,
    capability: 'manage',
    target: onTeam,
    errors: ['not_found', 'reference_not_found', 'rule_violated'],
    location: 'automationRules.get',
    examples: ruleExamples.create,
    run: (ctx, { params, body }) => createRule(ctx, params.teamId as TeamId, body as never),
  }),
  declareOperation({
    id: 'automationRules.get',
    method: 'GET',
    path: rulePath,
    tag: 'Automation rules',
    scope: 'work:read',
    summary: 'Get an automation rule',
    description: 'One automation rule, for the managers of its team.',
    requires: byRule,
    params: item,
    response: AutomationRule,
    status: 200,
    errors: ['not_found', 'capability_required'],
    etag: true,
    examples: ruleExamples.get,
    run: (ctx, { params }) => requireRule(ctx, params.automationRuleId as AutomationRuleId),
  }),
  declareOperation({
    id: 'automationRules.update',
    method: 'PATCH',
    path: rulePath,
    tag: 'Automation rules',
    scope: 'work:write',
    summary: 'Update an automation rule',
    description:
      'Changes its name, `enabled`, trigger, conditions or actions, checked as on creation. A change makes the caller the rule’s author: from then on it acts with their rights. A change that changes nothing writes nothing. Emits `automation_rule.updated`.',
    requires: byRule,
    params: item,
    body: UpdateRuleBody,
    response: AutomationRule,
    status: 200,
    errors: ['not_found', 'capability_required', 'reference_not_found', 'rule_violated'],
    precondition: 'automationRules.get',
    examples: ruleExamples.update,
    run: (ctx, { params, body }) =>
      updateRule(ctx, params.automationRuleId as AutomationRuleId, body as never),
  }),
  declareOperation({
    id: 'automationRules.delete',
    method: 'DELETE',
    path: rulePath,
    tag: 'Automation rules',
    scope: 'work:write',
    summary: 'Delete an automation rule',
    description:
      'Deletes the rule and its run log; what it did stays in the tasks’ history. Emits `automation_rule.deleted`.',
    requires: byRule,
    params: item,
    response: null,
    status: 204,
    errors: ['not_found', 'capability_required'],
    precondition: 'automationRules.get',
    run: (ctx, { params }) => deleteRule(ctx, params.automationRuleId as AutomationRuleId),
  }),
  declareOperation({
    id: 'automationRules.runs.list',
    method: 'GET',
    path: `${rulePath}/runs`,
    tag: 'Automation rules',
    scope: 'work:read',
    summary: 'List a rule’s runs',
    description:
      'The rule’s run log, newest first, keyset-paginated like a history: each event it acted on (`succeeded`), failed on (`failed`, with `error`: nothing was done) or stopped at the chain bound (`loopStopped`). Events whose task was not in the conditions’ list are not logged.',
    requires: byRule,
    params: item,
    query: paging,
    response: PageOf(AutomationRun, 'AutomationRun'),
    status: 200,
    errors: ['not_found', 'capability_required'],
    examples: ruleExamples.runs,
    run: (ctx, { params, query }) =>
      listRuns(ctx, params.automationRuleId as AutomationRuleId, query as never),
  }),
]

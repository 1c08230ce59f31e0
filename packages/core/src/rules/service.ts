import { currentOrg } from '../kernel/context.ts'
import type { AutomationRuleId, MemberId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { canonicalJson } from '../kernel/pipeline/canonical.ts'
import { notFound } from '../kernel/problems.ts'
import type { ViewFilter } from '../views/schemas.ts'
import { checkActions, checkConditions, checkTrigger } from './checks.ts'
import type { AutomationRule, AutomationRun, RuleAction, RuleTriggerSpec } from './schemas.ts'

const manage = (ctx: OperationContext, teamId: TeamId) => ctx.require('manage', { type: 'team', id: teamId })

/** A rule of a team the caller manages (404 when they cannot view the team, 403 when they can). */
export async function requireRule(ctx: OperationContext, ruleId: AutomationRuleId): Promise<AutomationRule> {
  const rule = await ctx.store.automationRules.get(currentOrg(ctx).id, ruleId)
  if (!rule) throw notFound('Automation rule')
  try {
    await manage(ctx, rule.teamId)
  } catch (error) {
    // A team the caller cannot view hides its rules as it hides itself.
    if ((error as { code?: string }).code === 'not_found') throw notFound('Automation rule')
    throw error
  }
  return rule
}

export function listRules(
  ctx: OperationContext,
  teamId: TeamId,
  query: { cursor?: string; limit?: number },
): Promise<Page<AutomationRule>> {
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['teams.automationRules.list', orgId, teamId],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (r: AutomationRule) => r.id,
    fetch: (page) => ctx.store.automationRules.listForTeam(orgId, teamId, page),
  })
}

function emit(ctx: OperationContext, kind: string, rule: { id: string; teamId: TeamId }, data: object) {
  ctx.emit({
    kind,
    resourceType: 'automation_rule',
    resourceId: rule.id,
    teamId: rule.teamId,
    data: { ...data },
  })
}

export async function createRule(
  ctx: OperationContext,
  teamId: TeamId,
  input: {
    name: string
    enabled?: boolean
    trigger: RuleTriggerSpec
    conditions?: ViewFilter
    actions: RuleAction[]
  },
): Promise<AutomationRule> {
  const conditions = checkConditions(ctx, input.conditions ?? {})
  await checkTrigger(ctx, teamId, input.trigger)
  await checkActions(ctx, teamId, input.actions)
  const rule: AutomationRule = {
    id: newId('AutomationRuleId'),
    orgId: currentOrg(ctx).id,
    teamId,
    name: input.name,
    enabled: input.enabled ?? true,
    trigger: input.trigger,
    conditions,
    actions: input.actions,
    authorId: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.automationRules.insert(rule)
  emit(ctx, 'automation_rule.created', rule, { id: rule.id, rule })
  return rule
}

/**
 * A change makes the caller the rule's author: the rule then acts with their rights, so nobody
 * gives a rule powers they do not hold by editing someone else's.
 */
export async function updateRule(
  ctx: OperationContext,
  ruleId: AutomationRuleId,
  patch: Partial<Pick<AutomationRule, 'name' | 'enabled' | 'trigger' | 'conditions' | 'actions'>>,
): Promise<AutomationRule> {
  const rule = await requireRule(ctx, ruleId)
  const next: Partial<AutomationRule> = { ...patch }
  if (patch.conditions) next.conditions = checkConditions(ctx, patch.conditions)
  if (patch.trigger) await checkTrigger(ctx, rule.teamId, patch.trigger)
  if (patch.actions) await checkActions(ctx, rule.teamId, patch.actions)
  const changes = Object.fromEntries(
    Object.entries(next)
      .filter(([k, after]) => canonicalJson(after) !== canonicalJson(rule[k as keyof AutomationRule]))
      .map(([k, after]) => [k, { before: rule[k as keyof AutomationRule], after }]),
  )
  if (Object.keys(changes).length === 0) return rule
  const authorId = ctx.actor!.id as MemberId
  if (authorId !== rule.authorId) changes.authorId = { before: rule.authorId, after: authorId }
  await ctx.store.automationRules.update(rule.orgId, rule.id, { ...next, authorId, updatedAt: ctx.now })
  const updated = (await ctx.store.automationRules.get(rule.orgId, rule.id))!
  emit(ctx, 'automation_rule.updated', updated, { id: rule.id, rule: updated, changes })
  return updated
}

export async function deleteRule(ctx: OperationContext, ruleId: AutomationRuleId): Promise<void> {
  const rule = await requireRule(ctx, ruleId)
  await ctx.store.automationRules.delete(rule.orgId, rule.id)
  emit(ctx, 'automation_rule.deleted', rule, { id: rule.id, name: rule.name })
}

/** The run log of a rule, newest first, like every history. */
export async function listRuns(
  ctx: OperationContext,
  ruleId: AutomationRuleId,
  query: { cursor?: string; limit?: number },
): Promise<Page<AutomationRun>> {
  const rule = await requireRule(ctx, ruleId)
  return readPage(ctx, {
    scope: ['automationRules.runs.list', rule.orgId, rule.id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (r: AutomationRun) => r.createdAt,
    fetch: (page) => ctx.store.automationRuns.list(rule.orgId, rule.id, page),
  })
}

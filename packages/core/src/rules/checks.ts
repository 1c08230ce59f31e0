import { currentOrg } from '../kernel/context.ts'
import type { MemberId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { checkFilter } from '../views/filter.ts'
import type { ViewFilter } from '../views/schemas.ts'
import type { RuleAction, RuleTriggerSpec } from './schemas.ts'

/** A trigger's state is an active state of the rule's team (the schema keeps each field to its kind). */
export async function checkTrigger(ctx: OperationContext, teamId: TeamId, trigger: RuleTriggerSpec) {
  if (trigger.on === 'stateEntered' && trigger.stateId)
    await stateOfTeam(ctx, teamId, trigger.stateId, '/body/trigger/stateId')
}

async function stateOfTeam(ctx: OperationContext, teamId: TeamId, stateId: string, pointer: string) {
  const state = await ctx.store.states.get(currentOrg(ctx).id, stateId as never)
  if (!state || state.teamId !== teamId || state.archivedAt)
    throw referenceNotFound(pointer, 'The state is not an active state of the rule’s team.')
}

/**
 * A state an action sets is an active state of the rule's team, and a member a `notify` names is
 * an active member (ids' records are checked again, as the author, when it runs).
 */
export async function checkActions(ctx: OperationContext, teamId: TeamId, actions: readonly RuleAction[]) {
  for (const [i, action] of actions.entries()) {
    if (action.type === 'setState') await stateOfTeam(ctx, teamId, action.value, `/body/actions/${i}/value`)
    if (action.type !== 'notify') continue
    for (const [j, to] of action.value.to.entries()) {
      if (!to.startsWith('mem_')) continue
      const member = await ctx.store.members.get(currentOrg(ctx).id, to as MemberId)
      if (member?.status !== 'active')
        throw referenceNotFound(`/body/actions/${i}/value/to/${j}`, 'Not an active member of the workspace.')
    }
  }
}

/** Conditions are a saved view's filter of tasks: the same check, the same pointer shape. */
export function checkConditions(ctx: OperationContext, conditions: ViewFilter): ViewFilter {
  try {
    return checkFilter(ctx, 'tasks', conditions)
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error
    const errors = (error.errors ?? []).map((e) => ({
      ...e,
      pointer: e.pointer.replace(/^\/body\/filter/, '/body/conditions'),
    }))
    throw new ProblemError(error.code, error.message, { errors, extensions: error.extensions })
  }
}

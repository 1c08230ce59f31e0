import { type IdBrand, isId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { currentOrg } from '../orgs/service.ts'
import { PRIORITIES } from '../tasks/schemas.ts'
import { checkFilter } from '../views/filter.ts'
import type { ViewFilter } from '../views/schemas.ts'
import type { RuleAction, RuleActionType, RuleTriggerSpec } from './schemas.ts'

/** What each action's `value` holds: an id of this brand, a priority, or Markdown; and whether null clears. */
const VALUE_OF: Record<RuleActionType, { brand?: IdBrand; nullable: boolean }> = {
  setState: { brand: 'StateId', nullable: false },
  setAssignee: { brand: 'MemberId', nullable: true },
  setPriority: { nullable: false },
  setProject: { brand: 'ProjectId', nullable: true },
  setCycle: { brand: 'CycleId', nullable: true },
  addLabel: { brand: 'LabelId', nullable: false },
  comment: { nullable: false },
}

const invalid = (pointer: string, message: string) =>
  new ProblemError('validation_failed', `${pointer.slice(6)}: ${message}.`, {
    errors: [{ pointer, message }],
  })

/** A trigger's narrowing fields belong to its kind, and a state to the rule's team. */
export async function checkTrigger(ctx: OperationContext, teamId: TeamId, trigger: RuleTriggerSpec) {
  if (trigger.stateId && trigger.on !== 'stateEntered')
    throw invalid('/body/trigger/stateId', 'Only a `stateEntered` trigger names a state')
  if (trigger.labelId && trigger.on !== 'labelAdded')
    throw invalid('/body/trigger/labelId', 'Only a `labelAdded` trigger names a label')
  if (trigger.stateId) await stateOfTeam(ctx, teamId, trigger.stateId, '/body/trigger/stateId')
}

async function stateOfTeam(ctx: OperationContext, teamId: TeamId, stateId: string, pointer: string) {
  const state = await ctx.store.states.get(currentOrg(ctx).id, stateId as never)
  if (!state || state.teamId !== teamId || state.archivedAt)
    throw referenceNotFound(pointer, 'The state is not an active state of the rule’s team.')
}

/** Each value is of its action's kind (the ids' records are checked again, as the author, when it runs). */
export async function checkActions(ctx: OperationContext, teamId: TeamId, actions: readonly RuleAction[]) {
  for (const [i, action] of actions.entries()) {
    const pointer = `/body/actions/${i}/value`
    const { brand, nullable } = VALUE_OF[action.type]
    if (action.value === null) {
      if (!nullable) throw invalid(pointer, `\`${action.type}\` needs a value`)
      continue
    }
    if (brand && !isId(brand, action.value)) throw invalid(pointer, `Expected a ${brand}`)
    if (action.type === 'setPriority' && !(PRIORITIES as readonly string[]).includes(action.value))
      throw invalid(pointer, `Expected one of ${PRIORITIES.join(', ')}`)
    if (action.type === 'setState') await stateOfTeam(ctx, teamId, action.value, pointer)
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

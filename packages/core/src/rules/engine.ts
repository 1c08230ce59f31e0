import type { StoredEvent } from '../kernel/events/events.ts'
import type { AutomationRuleId, EventId, MemberId, OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { Actor, OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { actingAs } from '../tasks/history/history.ts'
import { matchingTaskIds } from '../tasks/query.ts'
import { notify } from './notify.ts'
import type { AutomationRule, RuleAction, RunOutcome } from './schemas.ts'
import { type Fired, firedBy } from './triggers.ts'

/**
 * How long a chain of rule runs may grow: a person's change runs rules at depth 1, what those runs
 * change runs rules at depth 2, and so on; a run that would be deeper than this is recorded as
 * `loopStopped` and does nothing. Two rules undoing each other stop after three acts.
 */
export const RULE_CHAIN_LIMIT = 3
/** Events read per transaction: a backlog larger than this takes several. */
export const RULE_BATCH = 100
/** Enabled rules a team's event is tested against; a team holds at most this many that act. */
const RULES_PER_TEAM = 100

/** A rule whose act failed: the step rolls back, and runs again with the failure known. */
export class RuleFailure extends Error {
  constructor(
    readonly key: string,
    message: string,
  ) {
    super(message)
  }
}
const failureKey = (eventId: string, ruleId: string, taskId: string) => `${eventId}:${ruleId}:${taskId}`

/**
 * One step of the rule engine in one org, inside one transaction: claim the org's position, read
 * the events after it, run the rules they trigger, move the position past them. A run's acts, its
 * log entry and the new position commit together, so a crash repeats nothing and loses nothing, and
 * two engines never both run a rule on one event (the position's row lock serialises them).
 * `failed` holds acts already known to fail (`RuleFailure`): recorded as failed runs, not tried.
 */
export async function ruleStep(
  ctx: OperationContext,
  orgId: OrgId,
  failed: ReadonlyMap<string, string>,
  batch = RULE_BATCH,
): Promise<{ runs: number; more: boolean }> {
  const from = await ctx.store.ruleEngine.claim(orgId)
  // Most workspaces have no rule: skip their log. The end is read before the rules, so a rule
  // created meanwhile misses none of the events that follow its creation.
  const end = await ctx.store.ruleEngine.end(orgId)
  if (!(await ctx.store.automationRules.anyEnabled(orgId))) {
    if (end > from) await ctx.store.ruleEngine.advance(orgId, end)
    return { runs: 0, more: false }
  }
  const events = await ctx.store.events.list(orgId, from, batch)
  let runs = 0
  for (const event of events) runs += await runTriggered(ctx, orgId, event, failed)
  const last = events.at(-1)
  if (last) await ctx.store.ruleEngine.advance(orgId, last.seq)
  return { runs, more: events.length === batch }
}

async function runTriggered(
  ctx: OperationContext,
  orgId: OrgId,
  event: StoredEvent,
  failed: ReadonlyMap<string, string>,
): Promise<number> {
  let runs = 0
  for (const fired of await firedBy(ctx, orgId, event))
    runs += await runFired(ctx, orgId, event, fired, failed)
  return runs
}

async function runFired(
  ctx: OperationContext,
  orgId: OrgId,
  event: StoredEvent,
  fired: Fired,
  failed: ReadonlyMap<string, string>,
): Promise<number> {
  const rules = (await ctx.store.automationRules.enabledForTeam(orgId, fired.teamId, RULES_PER_TEAM)).filter(
    // A rule acts on what happens after its creation, however far behind the engine is.
    (r) => fired.fires(r.trigger) && fired.since >= r.createdAt,
  )
  if (rules.length === 0) return 0
  const depth = (await ctx.store.ruleEngine.depthOf(orgId, event.id as EventId)) + 1
  let runs = 0
  for (const rule of rules) {
    const key = failureKey(event.id, rule.id, fired.taskId)
    const known = failed.get(key)
    let outcome: RunOutcome = 'succeeded'
    let error: string | null = known ?? null
    if (depth > RULE_CHAIN_LIMIT) outcome = 'loopStopped'
    else if (known !== undefined) outcome = 'failed'
    else {
      const result = await runRule(ctx, rule, fired.taskId, depth, key)
      if (result === 'notMatched') continue
      if (result !== null) {
        outcome = 'failed'
        error = result
      }
    }
    await ctx.store.automationRuns.insert({
      id: newId('AutomationRunId'),
      orgId,
      ruleId: rule.id as AutomationRuleId,
      taskId: fired.taskId,
      eventId: event.id as EventId,
      outcome,
      error,
      depth,
      createdAt: ctx.now,
    })
    runs++
  }
  return runs
}

/** An act that is an operation: the author's capability for it is required, as a person's would be. */
async function runOperation(
  ctx: OperationContext,
  acting: OperationContext,
  rule: AutomationRule,
  act: { id: string; params: object; body: unknown },
) {
  const operation = ctx.operationOf(act.id)!
  const input = { params: { orgId: rule.orgId, ...act.params }, query: {}, body: act.body }
  if (operation.capability)
    await acting.require(operation.capability, operation.target?.(input as never) ?? { type: 'org' })
  await operation.run(acting, input as never)
}

/** The operation each action but `notify` is, and its input for the task. */
function operationOf(action: Exclude<RuleAction, { type: 'notify' }>, taskId: TaskId) {
  const task = { taskId }
  const field = {
    setState: 'stateId',
    setAssignee: 'assigneeId',
    setPriority: 'priority',
    setProject: 'projectId',
    setCycle: 'cycleId',
  } as const
  if (action.type === 'addLabel')
    return { id: 'tasks.labels.add', params: { ...task, labelId: action.value }, body: undefined }
  if (action.type === 'comment')
    return { id: 'tasks.comments.create', params: task, body: { body: action.value } }
  return { id: 'tasks.update', params: task, body: { [field[action.type]]: action.value } }
}

/**
 * Tests the conditions and does the acts as the rule's author, through the operations a person
 * would call: their capability is required for each act, their read scope bounds the conditions.
 * Answers null when done, `notMatched` when the task is not in the conditions' list, or why the
 * run could not start. An act that fails throws `RuleFailure`, undoing the step.
 */
async function runRule(
  ctx: OperationContext,
  rule: AutomationRule,
  taskId: TaskId,
  depth: number,
  key: string,
): Promise<null | 'notMatched' | string> {
  const member = await ctx.store.members.get(rule.orgId, rule.authorId as MemberId)
  if (member?.status !== 'active') return 'The rule’s author is no longer an active member.'
  const author: Actor = {
    id: member.id,
    kind: 'person',
    orgId: rule.orgId,
    role: member.role,
    userId: member.userId,
    name: member.name,
  }
  const base = ctx.within(ctx.org!, author)
  const written: EventId[] = []
  const acting = actingAs(
    {
      ...base,
      emit(event, orgId) {
        const id = base.emit(event, orgId)
        written.push(id)
        return id
      },
    },
    rule.id as `rule_${string}`,
  )
  // A rule acts only while its author could still manage it: a demoted author's rules fail.
  try {
    await acting.require('manage', { type: 'team', id: rule.teamId })
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error
    return 'The rule’s author no longer holds `manage` on its team.'
  }
  let matched: readonly TaskId[]
  try {
    matched = await matchingTaskIds(acting, rule.conditions, [taskId])
  } catch (error) {
    // Conditions that no longer hold as a query (a custom field since deleted): the run fails.
    if (!(error instanceof ProblemError)) throw error
    return `conditions: ${error.message}`
  }
  if (matched.length === 0) return 'notMatched'
  for (const action of rule.actions) {
    try {
      if (action.type === 'notify') await notify(acting, rule, taskId, action.value)
      else await runOperation(ctx, acting, rule, operationOf(action, taskId))
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error
      throw new RuleFailure(key, `${action.type}: ${error.message}`)
    }
  }
  await ctx.store.ruleEngine.markOrigins(rule.orgId, written, depth)
  return null
}

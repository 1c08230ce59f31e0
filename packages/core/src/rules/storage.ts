import type { AutomationRuleId, EventId, OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { AutomationRule, AutomationRun } from './schemas.ts'

export interface AutomationRuleRepo {
  insert(rule: AutomationRule): Promise<void>
  get(orgId: OrgId, id: AutomationRuleId): Promise<AutomationRule | null>
  /** The team's rules by id (creation order). */
  listForTeam(orgId: OrgId, teamId: TeamId, page: PageRequest<'id'>): Promise<AutomationRule[]>
  /** Whether the org has any enabled rule: without one, the engine skips its log. */
  anyEnabled(orgId: OrgId): Promise<boolean>
  /** The team's enabled rules, for the engine: at most `limit`, by id. */
  enabledForTeam(orgId: OrgId, teamId: TeamId, limit: number): Promise<AutomationRule[]>
  update(
    orgId: OrgId,
    id: AutomationRuleId,
    patch: Partial<Omit<AutomationRule, 'id' | 'orgId' | 'teamId' | 'createdAt'>>,
  ): Promise<void>
  /** Deletes the rule and its run log. */
  delete(orgId: OrgId, id: AutomationRuleId): Promise<void>
}

export type AutomationRunRecord = AutomationRun & { orgId: OrgId }

export interface AutomationRunRepo {
  insert(run: AutomationRunRecord): Promise<void>
  /** A rule's runs, newest first (by time, then id). */
  list(orgId: OrgId, ruleId: AutomationRuleId, page: PageRequest<'createdAt'>): Promise<AutomationRun[]>
}

/** The rule engine's place in each workspace's event log, and the chain depth of events runs wrote. */
export interface RuleEngineRepo {
  /** The org's position, locked for this transaction: a second engine waits, then reads the new one. */
  claim(orgId: OrgId): Promise<number>
  advance(orgId: OrgId, seq: number): Promise<void>
  /** The seq of the org's last event (0 for none). */
  end(orgId: OrgId): Promise<number>
  /** Orgs whose log has events past the position, at most `limit`, by id. */
  behind(limit: number): Promise<OrgId[]>
  /** Marks events a rule run wrote with the run's depth. */
  markOrigins(orgId: OrgId, eventIds: readonly EventId[], depth: number): Promise<void>
  /** The depth of the run that wrote the event; 0 for an event a person or agent caused. */
  depthOf(orgId: OrgId, eventId: EventId): Promise<number>
  /**
   * Teams, in every org, with an enabled `dueDatePassed` rule, and when the earliest of them was
   * created: the due-date pass's one query across orgs. At most `limit`, by org and team.
   */
  dueWatchers(limit: number): Promise<Array<{ orgId: OrgId; teamId: TeamId; since: string }>>
  /**
   * Up to `limit` of the team's unarchived tasks in a state neither completed nor canceled, due on
   * or after `from` and before `before` (dates), whose due date is not marked yet; earliest due first.
   */
  passedDue(
    orgId: OrgId,
    teamId: TeamId,
    options: { from: string; before: string; limit: number },
  ): Promise<Array<{ taskId: TaskId; dueDate: string }>>
  /** Marks the task's due date as passed; false, writing nothing, when it was marked already. */
  markDue(orgId: OrgId, taskId: TaskId, dueDate: string): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    automationRules: AutomationRuleRepo
    automationRuns: AutomationRunRepo
    ruleEngine: RuleEngineRepo
  }
}

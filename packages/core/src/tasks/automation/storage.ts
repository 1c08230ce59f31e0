import type { OrgId, TaskId, TeamId } from '../../kernel/ids.ts'
import type { StateCategory } from '../../teams/schemas.ts'

/** The queries of the teams' auto-close and auto-archive pass (automation.ts). */
export interface TaskAutomationRepo {
  /**
   * Every unarchived team, in every org, whose settings set `autoCloseDays` or `autoArchiveDays`,
   * by org and team: the pass's one query across orgs; everything else it does runs in one org.
   */
  teams(): Promise<Array<{ orgId: OrgId; teamId: TeamId }>>
  /**
   * Up to `limit` of the team's unarchived tasks in a state of one of `categories`, last changed at
   * or before `cutoff` and with no comment written or edited after it, least recently changed first.
   * Left out: triage items snoozed past `now`, and tasks with an unarchived subtask that is neither
   * completed nor canceled (closed bottom-up).
   */
  stale(
    orgId: OrgId,
    teamId: TeamId,
    options: { categories: readonly StateCategory[]; cutoff: string; now: string; limit: number },
  ): Promise<TaskId[]>
  /**
   * Up to `limit` of the team's unarchived tasks completed or canceled at or before `cutoff` and not
   * changed since (a restore, for one), least recently changed first. Left out: tasks with an
   * unarchived subtask (archived bottom-up).
   */
  closed(orgId: OrgId, teamId: TeamId, options: { cutoff: string; limit: number }): Promise<TaskId[]>
}

declare module '../../kernel/storage.ts' {
  interface Store {
    taskAutomation: TaskAutomationRepo
  }
}

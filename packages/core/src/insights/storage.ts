import type { CycleId, OrgId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { TeamVelocity, Workload } from './schemas.ts'

/** Tasks grouped by a UTC day or week start (`YYYY-MM-DD`): how many, and their estimates summed. */
export interface Bucket {
  key: string
  count: number
  points: number
}

/** One project's tasks by week (`key` the Monday), for a burn-up. */
export interface ProjectWeekBuckets {
  projectId: ProjectId
  /** By the week each joined the project: its last move into it, else its creation. */
  added: Bucket[]
  /** By the week each started (or was completed without having started), not before it joined. */
  started: Bucket[]
  /** By the week each was completed, not before it joined. */
  completed: Bucket[]
}

export interface CycleTimeBucket {
  key: string
  count: number
  averageHours: number | null
  minHours: number | null
  maxHours: number | null
  averageLeadHours: number | null
}

/**
 * Aggregates over tasks, computed in SQL with the read scope's predicate in the query, so every
 * figure counts only tasks the reader may view. Deleted tasks never count; canceled ones leave scope.
 */
export interface InsightsRepo {
  /**
   * A cycle's current tasks by the day they joined it (their last move into the cycle, else their
   * creation) and by the day they were completed.
   */
  cycleDays(
    orgId: OrgId,
    cycleId: CycleId,
    scope: ReadScope,
  ): Promise<{ added: Bucket[]; completed: Bucket[] }>
  /**
   * The projects' current, uncanceled tasks by week, one entry per project that has any. Visible
   * means `visibleTask`: a visible team, or a grant on the project.
   */
  projectWeeks(orgId: OrgId, projectIds: ProjectId[], scope: ReadScope): Promise<ProjectWeekBuckets[]>
  /** A team's tasks by week of creation and by week of completion, from `since`. */
  teamWeeks(
    orgId: OrgId,
    teamId: TeamId,
    since: string,
    scope: ReadScope,
  ): Promise<{ created: Bucket[]; completed: Bucket[] }>
  /** Started-to-completed and created-to-completed hours of a team's tasks, by week of completion. */
  cycleTimes(orgId: OrgId, teamId: TeamId, since: string, scope: ReadScope): Promise<CycleTimeBucket[]>
  /** The team's latest `limit` cycles starting before `now`, newest first, with their scope and completion. */
  velocity(
    orgId: OrgId,
    teamId: TeamId,
    now: string,
    limit: number,
    scope: ReadScope,
  ): Promise<TeamVelocity['cycles']>
  /** Open tasks per assignee; `today` (`YYYY-MM-DD`) decides what is overdue. */
  workload(
    orgId: OrgId,
    filter: { teamId?: TeamId; projectId?: ProjectId },
    today: string,
    scope: ReadScope,
  ): Promise<Workload['assignees']>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Reads that aggregate tasks (burndown, throughput, cycle time, velocity, workload). */
    insights: InsightsRepo
  }
}

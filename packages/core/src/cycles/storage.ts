import type { CycleId, OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { StateTally } from '../tasks/progress.ts'
import type { Cycle, CycleSettings } from './schemas.ts'

/** What is stored of a cycle; `status` is derived from the clock when it is read. */
export type CycleRecord = Omit<Cycle, 'status'>

export interface CycleFilter {
  teamId: TeamId
  /** Status as of `now`. */
  status?: { value: Cycle['status']; now: string }
  /** true: only archived cycles; false: none of them; null: both. */
  archived: boolean | null
}

export interface CycleRepo {
  insert(cycle: CycleRecord): Promise<void>
  /** With a scope, a cycle of a team the scope cannot view is not returned. */
  get(orgId: OrgId, id: CycleId, scope?: ReadScope): Promise<CycleRecord | null>
  /** Keyset by `startsAt` (then id); only cycles of teams the scope can view. */
  list(
    orgId: OrgId,
    filter: CycleFilter,
    page: PageRequest<'startsAt'>,
    scope: ReadScope,
  ): Promise<CycleRecord[]>
  update(
    orgId: OrgId,
    id: CycleId,
    patch: Partial<
      Pick<
        CycleRecord,
        'name' | 'description' | 'startsAt' | 'endsAt' | 'completedAt' | 'archivedAt' | 'updatedAt'
      >
    >,
  ): Promise<void>
  /** Deletes the cycle; its tasks leave it (their `cycleId` becomes null). */
  delete(orgId: OrgId, id: CycleId): Promise<void>
  /** Cycles of the team whose [startsAt, endsAt) overlaps the window, except `exceptId`. */
  overlapping(
    orgId: OrgId,
    teamId: TeamId,
    window: { startsAt: string; endsAt: string },
    exceptId?: CycleId,
  ): Promise<CycleRecord[]>
  /** Every cycle of the team (archived ones included), by start then id. */
  ofTeam(orgId: OrgId, teamId: TeamId): Promise<CycleRecord[]>
  /** The team's cycles that are not completed and end after `after`, by start. */
  openAfter(orgId: OrgId, teamId: TeamId, after: string): Promise<CycleRecord[]>
  /** The team's cycle that ends last, or null. */
  last(orgId: OrgId, teamId: TeamId): Promise<CycleRecord | null>
  /** The number the team's next cycle gets; call under the team's cycle lock. */
  nextNumber(orgId: OrgId, teamId: TeamId): Promise<number>
  /** Tasks of the cycle (not archived, not deleted) counted per state category. */
  progress(orgId: OrgId, id: CycleId): Promise<StateTally[]>
  /** Unfinished (not completed or canceled), not deleted tasks of the cycle, by id. */
  unfinishedTasks(orgId: OrgId, id: CycleId): Promise<TaskId[]>
  /**
   * Maintenance sweep, across orgs: cycles not completed whose end is at or before `now`, oldest
   * end first. Only the engine's periodic pass uses it; nothing a caller reads spans tenants.
   */
  ended(now: string, limit: number): Promise<Array<Pick<CycleRecord, 'orgId' | 'id' | 'teamId'>>>
  /** The team's cycle settings, or null while they are the defaults. */
  getSettings(orgId: OrgId, teamId: TeamId): Promise<CycleSettings | null>
  putSettings(orgId: OrgId, settings: CycleSettings & { updatedAt: string }): Promise<void>
  /** Maintenance sweep, across orgs: teams with a cadence enabled (and not archived). */
  teamsWithCadence(): Promise<Array<{ orgId: OrgId; teamId: TeamId }>>
}

declare module '../kernel/storage.ts' {
  interface Store {
    cycles: CycleRepo
  }
}

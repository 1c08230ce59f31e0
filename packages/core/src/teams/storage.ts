import type { OrgId, StateId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Team, WorkflowState } from './schemas.ts'

export type TeamRecord = Team

export interface TeamRepo {
  /** Also creates the team's task-number counter. */
  insert(team: TeamRecord): Promise<void>
  /** With a scope, a team the actor cannot view is not returned. */
  get(orgId: OrgId, id: TeamId, scope?: ReadScope): Promise<Team | null>
  keyTaken(orgId: OrgId, key: string, exceptId?: TeamId): Promise<boolean>
  list(
    orgId: OrgId,
    filter: { archived: boolean | null },
    page: PageRequest<'id'>,
    scope: ReadScope,
  ): Promise<Team[]>
  update(
    orgId: OrgId,
    id: TeamId,
    patch: Partial<Pick<Team, 'name' | 'key' | 'description' | 'updatedAt' | 'archivedAt'>>,
  ): Promise<void>
  /**
   * Allocates the next task number of the team. Under concurrent calls every caller receives a
   * distinct number; the counter row stays locked until the transaction ends.
   */
  nextTaskNumber(orgId: OrgId, id: TeamId): Promise<number>
}

export interface StateRepo {
  insert(state: WorkflowState): Promise<void>
  get(orgId: OrgId, id: StateId): Promise<WorkflowState | null>
  /** The team's states by position. */
  listForTeam(orgId: OrgId, teamId: TeamId, filter: { includeArchived: boolean }): Promise<WorkflowState[]>
  update(
    orgId: OrgId,
    id: StateId,
    patch: Partial<
      Pick<WorkflowState, 'name' | 'color' | 'description' | 'position' | 'updatedAt' | 'archivedAt'>
    >,
  ): Promise<void>
  /** Tasks (archived or not, but not deleted) that sit in the state. */
  countTasks(orgId: OrgId, id: StateId): Promise<number>
}

declare module '../kernel/storage.ts' {
  interface Store {
    teams: TeamRepo
    states: StateRepo
  }
}

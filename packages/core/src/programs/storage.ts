import type { LabelId, MemberId, OrgId, ProgramId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { StateTally } from '../tasks/progress.ts'
import type { Program, ProgramHistoryEntry, ProgramMember, ProgramStatus, ProgramTeam } from './schemas.ts'

/** What is stored of a program; `health` and `lastUpdateAt` are read from its latest unarchived update. */
export type ProgramRecord = Omit<Program, 'health' | 'lastUpdateAt' | 'labelIds'>

export interface ProgramFilter {
  status?: ProgramStatus
  /** A member, or null for programs without an owner. */
  ownerId?: string | null
  teamId?: TeamId
  /** Programs carrying this label. */
  labelId?: LabelId
  /** The health of the latest unarchived status update; null for programs without one. */
  health?: 'onTrack' | 'atRisk' | 'offTrack' | null
  /** false: only active programs (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

/**
 * A history entry as stored: `ref` names the project or team a link entry is about, so reads can
 * leave out entries about records the reader cannot view.
 */
export type ProgramHistoryRecord = ProgramHistoryEntry & {
  orgId: OrgId
  ref: { type: 'project' | 'team'; id: string } | null
}

/** A project's place in a program. */
export interface ProgramProjectRow {
  projectId: ProjectId
  position: number
  addedBy: string
  addedAt: string
}

export interface ProgramRepo {
  insert(program: ProgramRecord): Promise<void>
  /**
   * With a scope, only a program the reader may view: org-wide readers see all; others those a grant
   * reaches (`scope.programIds`), one of whose teams is visible, or holding a project they can view.
   * Without one, any program of the org (the engine's own look-ups).
   */
  get(orgId: OrgId, id: ProgramId, scope?: ReadScope): Promise<Program | null>
  /** Newest first (by `createdAt`, then id); the scope narrows as for `get`, inside the query. */
  list(
    orgId: OrgId,
    filter: ProgramFilter,
    page: PageRequest<'createdAt'>,
    scope?: ReadScope,
  ): Promise<Program[]>
  update(
    orgId: OrgId,
    id: ProgramId,
    patch: Partial<Omit<ProgramRecord, 'id' | 'orgId' | 'creatorId' | 'createdAt'>>,
  ): Promise<void>
  /** Deletes the program, its project links, members, teams and status updates; the projects stay. */
  delete(orgId: OrgId, id: ProgramId): Promise<void>

  /**
   * The program's projects the scope can view (one of the project's teams is visible), by position
   * then project id; hidden projects are left out in SQL so pages stay exact.
   */
  projects(
    orgId: OrgId,
    id: ProgramId,
    page: PageRequest<'position'>,
    scope: ReadScope,
  ): Promise<ProgramProjectRow[]>
  /** Every project link of the program, whoever may view it, by position. */
  allProjects(orgId: OrgId, id: ProgramId): Promise<ProgramProjectRow[]>
  /** Returns false when the project is in the program already. */
  addProject(orgId: OrgId, id: ProgramId, row: ProgramProjectRow): Promise<boolean>
  /** Returns false when the project was not in the program. */
  removeProject(orgId: OrgId, id: ProgramId, projectId: ProjectId): Promise<boolean>
  setPosition(orgId: OrgId, id: ProgramId, projectId: ProjectId, position: number): Promise<void>
  /** Returns false when the program carries the label already. */
  addLabel(orgId: OrgId, id: ProgramId, labelId: LabelId, at: string): Promise<boolean>
  /** Returns false when the program did not carry the label. */
  removeLabel(orgId: OrgId, id: ProgramId, labelId: LabelId): Promise<boolean>
  /**
   * Tasks (not archived, not deleted) the scope can view, of the program's unarchived projects the
   * scope can view, counted per state category.
   */
  progress(orgId: OrgId, id: ProgramId, scope: ReadScope): Promise<StateTally[]>

  /** The program's members, by member id. */
  members(orgId: OrgId, id: ProgramId, page: PageRequest<'id'>): Promise<ProgramMember[]>
  member(orgId: OrgId, id: ProgramId, memberId: MemberId): Promise<ProgramMember | null>
  /** Returns false when the member is in the program already. */
  addMember(orgId: OrgId, id: ProgramId, memberId: MemberId, at: string): Promise<boolean>
  removeMember(orgId: OrgId, id: ProgramId, memberId: MemberId): Promise<boolean>

  /** The program's teams the scope can view, by team id. */
  teams(orgId: OrgId, id: ProgramId, page: PageRequest<'id'>, scope: ReadScope): Promise<ProgramTeam[]>
  team(orgId: OrgId, id: ProgramId, teamId: TeamId): Promise<ProgramTeam | null>
  /** Every team of the program, for capability checks. */
  teamIds(orgId: OrgId, id: ProgramId): Promise<TeamId[]>
  addTeam(orgId: OrgId, id: ProgramId, teamId: TeamId, at: string): Promise<boolean>
  removeTeam(orgId: OrgId, id: ProgramId, teamId: TeamId): Promise<boolean>

  insertHistory(entries: readonly ProgramHistoryRecord[]): Promise<void>
  /**
   * Oldest first (by `createdAt`, then id). Entries about a project or team the scope cannot view
   * are left out in SQL.
   */
  history(
    orgId: OrgId,
    id: ProgramId,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<ProgramHistoryEntry[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Programs: ongoing areas holding projects, with members and teams. */
    programs: ProgramRepo
  }
}

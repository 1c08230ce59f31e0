import type {
  LabelId,
  MemberId,
  MilestoneId,
  OrgId,
  ProjectId,
  ProjectRelationId,
  ProjectStatusId,
  TeamId,
} from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { StateTally } from '../tasks/progress.ts'
import type { ProjectHistoryEntry } from './history/records.ts'
import type { ProjectRelation } from './relations/schemas.ts'
import type { Milestone, Project, ProjectMember, ProjectStatus, ProjectTeam } from './schemas.ts'

/** A status of the org's default set, as seeded: its `seed` is the category it was created for. */
export type SeededStatus = ProjectStatus & { seed: string }

export interface ProjectStatusRepo {
  /**
   * Inserts the statuses whose `seed` the org has not had yet, and nothing else: under concurrent
   * calls each seed is inserted exactly once (a unique key on `(org_id, seed)`), so the default set
   * can be created lazily by reads and writes alike.
   */
  seed(orgId: OrgId, statuses: readonly SeededStatus[]): Promise<void>
  /** Whether the org has ever been seeded. */
  isSeeded(orgId: OrgId): Promise<boolean>
  insert(status: ProjectStatus): Promise<void>
  get(orgId: OrgId, id: ProjectStatusId): Promise<ProjectStatus | null>
  /** Ordered by position, then id. `archived`: false only active ones, true only archived, null both. */
  list(
    orgId: OrgId,
    filter: { archived: boolean | null },
    page: PageRequest<'position'>,
  ): Promise<ProjectStatus[]>
  /** Every active status, by position. */
  active(orgId: OrgId): Promise<ProjectStatus[]>
  /** An unarchived or archived status with this name (ignoring case), other than `exceptId`. */
  findByName(orgId: OrgId, name: string, exceptId?: ProjectStatusId): Promise<ProjectStatus | null>
  /** The position after the last status. */
  nextPosition(orgId: OrgId): Promise<number>
  update(
    orgId: OrgId,
    id: ProjectStatusId,
    patch: Partial<
      Pick<ProjectStatus, 'name' | 'color' | 'description' | 'position' | 'updatedAt' | 'archivedAt'>
    >,
  ): Promise<void>
  /** How many projects (archived ones too) are in the status. */
  countProjects(orgId: OrgId, id: ProjectStatusId): Promise<number>
}

/** A project as storage reads it: everything but what depends on today's date. */
export type ProjectRow = Omit<Project, 'updateDue' | 'nextUpdateDueAt'>

/**
 * What is stored of a project; `statusCategory` is read through the status, `teamIds` from
 * `project_teams`, `labelIds` from `project_labels`, `fields` from `custom_field_values`, `health` and `lastUpdateAt` from its latest unarchived status update,
 * `openBlockers` (and `blocked`) from its `blocks` relations.
 */
export type ProjectRecord = Omit<
  ProjectRow,
  | 'statusCategory'
  | 'teamIds'
  | 'labelIds'
  | 'fields'
  | 'health'
  | 'lastUpdateAt'
  | 'blocked'
  | 'openBlockers'
>

export interface ProjectFilter {
  statusId?: ProjectStatusId
  /** A member, or null for projects without a lead. */
  leadId?: string | null
  teamId?: TeamId
  /** Projects carrying this label. */
  labelId?: LabelId
  /** false: only active projects (the default); true: only archived ones; null: both. */
  archived: boolean | null
  /** The health of the latest unarchived status update; null for projects without one. */
  health?: 'onTrack' | 'atRisk' | 'offTrack' | null
  /** true: only projects with an open blocker (`openBlockers` > 0); false: only those without. */
  blocked?: boolean
}

export interface ProjectRepo {
  /** Writes the project and its teams. */
  insert(project: ProjectRecord, teamIds: readonly TeamId[], at: string): Promise<void>
  /**
   * With a scope, a project none of whose teams the scope can view is not returned: the predicate
   * is part of the query.
   */
  get(orgId: OrgId, id: ProjectId, scope: ReadScope): Promise<ProjectRow | null>
  /**
   * What placing a task in the project checks, in one read: null when the project does not exist
   * or the scope cannot view it (the predicate of `get`), else whether it is archived.
   */
  placement(orgId: OrgId, id: ProjectId, scope: ReadScope): Promise<{ archived: boolean } | null>
  /** Newest first (by `createdAt`, then id); only projects the scope can view, filtered in SQL. */
  list(
    orgId: OrgId,
    filter: ProjectFilter,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<ProjectRow[]>
  update(
    orgId: OrgId,
    id: ProjectId,
    patch: Partial<Omit<ProjectRecord, 'id' | 'orgId' | 'creatorId' | 'createdAt'>>,
  ): Promise<void>
  /** The project's teams the scope can view, by id. */
  listTeams(orgId: OrgId, id: ProjectId, page: PageRequest<'id'>, scope: ReadScope): Promise<ProjectTeam[]>
  getTeam(orgId: OrgId, id: ProjectId, teamId: TeamId): Promise<ProjectTeam | null>
  /** Returns false when the team is on the project already. */
  addTeam(orgId: OrgId, id: ProjectId, teamId: TeamId, at: string): Promise<boolean>
  /** Returns false when the team was not on the project. */
  removeTeam(orgId: OrgId, id: ProjectId, teamId: TeamId): Promise<boolean>
  /** The project's members, by member id. */
  listMembers(orgId: OrgId, id: ProjectId, page: PageRequest<'id'>): Promise<ProjectMember[]>
  getMember(orgId: OrgId, id: ProjectId, memberId: MemberId): Promise<ProjectMember | null>
  /** Returns false when the member is on the project already. */
  addMember(orgId: OrgId, id: ProjectId, memberId: MemberId, at: string): Promise<boolean>
  /** Returns false when the member was not on the project. */
  removeMember(orgId: OrgId, id: ProjectId, memberId: MemberId): Promise<boolean>
  /** Returns false when the project carries the label already. */
  addLabel(orgId: OrgId, id: ProjectId, labelId: LabelId, at: string): Promise<boolean>
  /** Returns false when the project did not carry the label. */
  removeLabel(orgId: OrgId, id: ProjectId, labelId: LabelId): Promise<boolean>
  /**
   * Deletes the project, its milestones, members, labels, team links, initiative links and status updates; its tasks stay, without project and
   * milestone. Returns the ids of those tasks.
   */
  delete(orgId: OrgId, id: ProjectId): Promise<string[]>
  /** The project's tasks (not archived, not deleted) the scope can view, counted per state category. */
  progress(orgId: OrgId, id: ProjectId, scope: ReadScope): Promise<StateTally[]>
}

/** What is stored of a milestone; `status` is derived when it is read. */
export type MilestoneRecord = Omit<Milestone, 'status' | 'progress'>

/** A milestone's tasks of one state category that the reader may view (not archived, not deleted). */
export interface MilestoneTally extends StateTally {
  milestoneId: MilestoneId
}

export interface MilestoneRepo {
  insert(milestone: MilestoneRecord): Promise<void>
  get(orgId: OrgId, id: MilestoneId): Promise<MilestoneRecord | null>
  /** The project's milestones by position, then id. */
  list(orgId: OrgId, projectId: ProjectId, page: PageRequest<'position'>): Promise<MilestoneRecord[]>
  /** Every milestone of the project, by position (for deriving `next`). */
  all(orgId: OrgId, projectId: ProjectId): Promise<MilestoneRecord[]>
  /** The tasks of the project's milestones the scope can view, counted per milestone and state category. */
  tallies(orgId: OrgId, projectId: ProjectId, scope: ReadScope): Promise<MilestoneTally[]>
  findByName(
    orgId: OrgId,
    projectId: ProjectId,
    name: string,
    exceptId?: MilestoneId,
  ): Promise<MilestoneRecord | null>
  nextPosition(orgId: OrgId, projectId: ProjectId): Promise<number>
  update(
    orgId: OrgId,
    id: MilestoneId,
    patch: Partial<Pick<MilestoneRecord, 'name' | 'description' | 'targetDate' | 'position' | 'updatedAt'>>,
  ): Promise<void>
  /** Deletes the milestone; its tasks keep the project and lose the milestone. Returns their ids. */
  delete(orgId: OrgId, id: MilestoneId): Promise<string[]>
}

/** A `blocks` relation as the dependency graph needs it. */
export type BlockingEdge = Pick<
  ProjectRelation,
  'id' | 'projectId' | 'milestoneId' | 'relatedProjectId' | 'relatedMilestoneId'
>

export interface ProjectRelationRepo {
  insert(relation: ProjectRelation): Promise<void>
  get(orgId: OrgId, id: ProjectRelationId): Promise<ProjectRelation | null>
  /**
   * The relations with the project on either end whose both ends the scope can view (the predicate
   * is part of the query), oldest first.
   */
  list(
    orgId: OrgId,
    projectId: ProjectId,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<ProjectRelation[]>
  /** A relation between the two records (a milestone id, or a project id for the whole project), either way. */
  findBetween(
    orgId: OrgId,
    a: string,
    b: string,
    exceptId?: ProjectRelationId,
  ): Promise<ProjectRelation | null>
  /** Every `blocks` relation of the org. */
  blockingEdges(orgId: OrgId): Promise<BlockingEdge[]>
  update(
    orgId: OrgId,
    id: ProjectRelationId,
    patch: Partial<Pick<ProjectRelation, 'type' | 'milestoneId' | 'relatedMilestoneId' | 'updatedAt'>>,
  ): Promise<void>
  delete(orgId: OrgId, id: ProjectRelationId): Promise<void>
  /** Deletes the relations touching the project (either end) or anchored on the milestone; returns their ids. */
  deleteTouching(orgId: OrgId, on: { projectId: ProjectId } | { milestoneId: MilestoneId }): Promise<string[]>
}

export type ProjectHistoryRecord = ProjectHistoryEntry & { orgId: OrgId }

/** The append-only change log of projects. */
export interface ProjectHistoryRepo {
  insert(entries: ProjectHistoryRecord[]): Promise<void>
  /** The project's entries, oldest first (by time, then id). */
  list(orgId: OrgId, projectId: ProjectId, page: PageRequest<'createdAt'>): Promise<ProjectHistoryEntry[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    projectHistory: ProjectHistoryRepo
    projectRelations: ProjectRelationRepo
    /** The org's project statuses. */
    projectStatuses: ProjectStatusRepo
    projects: ProjectRepo
    milestones: MilestoneRepo
  }
}

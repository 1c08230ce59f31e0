import type { InitiativeId, LabelId, MemberId, OrgId, ProjectId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import type { InitiativeHistoryEntry } from './history/schemas.ts'
import type { Initiative, InitiativeMember, InitiativeProject, InitiativeStatus } from './schemas.ts'

/** What is stored of an initiative; `health` and `lastUpdateAt` come from its latest unarchived update. */
export type InitiativeRecord = Omit<Initiative, 'health' | 'lastUpdateAt' | 'labelIds'>

export interface InitiativeFilter {
  status?: InitiativeStatus
  /** A member, or null for initiatives without an owner. */
  ownerId?: MemberId | null
  /** A parent, or null for top-level initiatives. */
  parentId?: InitiativeId | null
  /** Reported health; null for initiatives without an update. */
  health?: UpdateHealth | null
  /** Initiatives carrying this label. */
  labelId?: LabelId
  targetBefore?: string
  targetAfter?: string
  /** false: only active ones (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

/** One ancestor of an initiative, `depth` levels above it (0 is the initiative itself). */
export interface Ancestor {
  id: InitiativeId
  depth: number
}

/**
 * Initiatives and their hierarchy. Storage keeps a closure table (every ancestor/descendant pair with
 * its distance) in the writing transaction, so visibility and subtrees are plain joins in SQL.
 *
 * Visibility: a reader with org-wide view sees every initiative; any other reader sees those holding,
 * directly or through sub-initiatives, a project they can view.
 */
export interface InitiativeRepo {
  /** Writes the initiative and its ancestor rows (under `parentId`). */
  insert(initiative: InitiativeRecord): Promise<void>
  get(orgId: OrgId, id: InitiativeId, scope: ReadScope): Promise<Initiative | null>
  /** Newest first (by `createdAt`, then id); only initiatives the scope can view, filtered in SQL. */
  list(
    orgId: OrgId,
    filter: InitiativeFilter,
    page: PageRequest<'createdAt'>,
    scope: ReadScope,
  ): Promise<Initiative[]>
  update(
    orgId: OrgId,
    id: InitiativeId,
    patch: Partial<Omit<InitiativeRecord, 'id' | 'orgId' | 'creatorId' | 'createdAt' | 'parentId'>>,
  ): Promise<void>
  /** The initiative and its ancestors, nearest first. */
  ancestors(orgId: OrgId, id: InitiativeId): Promise<Ancestor[]>
  /** Levels below the initiative in its subtree (0 for a leaf). */
  height(orgId: OrgId, id: InitiativeId): Promise<number>
  /** Moves the initiative and its subtree under `parentId` (null: to the top level). */
  move(orgId: OrgId, id: InitiativeId, parentId: InitiativeId | null): Promise<void>
  /**
   * The visible initiatives of the subtree of `rootId` (the root included), or of the whole org when
   * null, oldest first (by `createdAt`, then id).
   */
  subtree(orgId: OrgId, rootId: InitiativeId | null, scope: ReadScope): Promise<Initiative[]>
  /**
   * Deletes the initiative, its links, members, history and status updates; its sub-initiatives move
   * to its parent. Returns the ids of those that moved.
   */
  delete(orgId: OrgId, id: InitiativeId): Promise<InitiativeId[]>

  /** The initiative's linked projects the scope can view, by position then project id. */
  listProjects(
    orgId: OrgId,
    id: InitiativeId,
    page: PageRequest<'position'>,
    scope: ReadScope,
  ): Promise<InitiativeProject[]>
  /** Links of any of the initiatives to projects the scope can view. */
  projectLinks(
    orgId: OrgId,
    ids: readonly InitiativeId[],
    scope: ReadScope,
  ): Promise<{ initiativeId: InitiativeId; projectId: ProjectId }[]>
  /** One link, whoever can view the project (the caller checked that already). */
  projectLink(orgId: OrgId, id: InitiativeId, projectId: ProjectId): Promise<InitiativeProject | null>
  /** Returns false when the project is linked already. */
  addProject(orgId: OrgId, id: InitiativeId, projectId: ProjectId, at: string): Promise<boolean>
  /** Returns false when the project was not linked. */
  removeProject(orgId: OrgId, id: InitiativeId, projectId: ProjectId): Promise<boolean>
  setProjectPosition(orgId: OrgId, id: InitiativeId, projectId: ProjectId, position: number): Promise<void>

  /** Members by when they were added, then id. */
  listMembers(orgId: OrgId, id: InitiativeId, page: PageRequest<'addedAt'>): Promise<InitiativeMember[]>
  member(orgId: OrgId, id: InitiativeId, memberId: MemberId): Promise<InitiativeMember | null>
  /** Returns false when the member is on the initiative already. */
  addMember(orgId: OrgId, id: InitiativeId, memberId: MemberId, at: string): Promise<boolean>
  removeMember(orgId: OrgId, id: InitiativeId, memberId: MemberId): Promise<boolean>
  /** Returns false when the initiative carries the label already. */
  addLabel(orgId: OrgId, id: InitiativeId, labelId: LabelId, at: string): Promise<boolean>
  /** Returns false when the initiative did not carry the label. */
  removeLabel(orgId: OrgId, id: InitiativeId, labelId: LabelId): Promise<boolean>

  insertHistory(orgId: OrgId, entry: InitiativeHistoryEntry): Promise<void>
  /** Newest first (by `createdAt`, then id). */
  history(orgId: OrgId, id: InitiativeId, page: PageRequest<'createdAt'>): Promise<InitiativeHistoryEntry[]>
}

declare module '../kernel/storage.ts' {
  interface Store {
    initiatives: InitiativeRepo
  }
}

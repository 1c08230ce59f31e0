import type { ActorId, LabelId, OrgId, TaskId, TeamId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Label } from './schemas.ts'

export interface LabelFilter {
  /** Labels that apply to this team's tasks: the team's own and the org's. */
  appliesToTeamId?: TeamId
  parentId?: LabelId
  /** false: only active labels (the default); true: only archived ones; null: both. */
  archived: boolean | null
}

export interface LabelRepo {
  insert(label: Label): Promise<void>
  /** With a scope, a team label of a team the scope cannot view is not returned; org labels always are. */
  get(orgId: OrgId, id: LabelId, scope: ReadScope): Promise<Label | null>
  /** The labels of these ids that `get` would return, in one read; in no particular order. */
  getMany(orgId: OrgId, ids: readonly LabelId[], scope: ReadScope): Promise<Label[]>
  /** Ordered by name ignoring case (the `name` sort key is the lowercased name), then id. */
  list(orgId: OrgId, filter: LabelFilter, page: PageRequest<'name'>, scope: ReadScope): Promise<Label[]>
  /** An active label of the scope (org: `teamId` null) with this name, ignoring case, other than `exceptId`. */
  findActiveByName(
    orgId: OrgId,
    teamId: TeamId | null,
    name: string,
    exceptId?: LabelId,
  ): Promise<Label | null>
  update(
    orgId: OrgId,
    id: LabelId,
    patch: Partial<Pick<Label, 'name' | 'color' | 'description' | 'parentId' | 'updatedAt' | 'archivedAt'>>,
  ): Promise<void>
  /** Deletes the label, takes it off every task and ungroups its children; returns how many tasks carried it. */
  delete(orgId: OrgId, id: LabelId): Promise<number>
  /** The label ids a task carries, in the order they were added. */
  labelIdsOf(orgId: OrgId, taskId: TaskId): Promise<LabelId[]>
  /** Puts the labels on the task in one write; returns how many it did not carry already. */
  addToTask(
    orgId: OrgId,
    taskId: TaskId,
    labelIds: readonly LabelId[],
    by: { actorId: ActorId; at: string },
  ): Promise<number>
  /** Returns false when the task did not carry the label. */
  removeFromTask(orgId: OrgId, taskId: TaskId, labelId: LabelId): Promise<boolean>
  /** How many tasks carry `labelId` together with another label whose group is `groupId`. */
  countTasksSharingGroup(orgId: OrgId, labelId: LabelId, groupId: LabelId): Promise<number>
}

declare module '../kernel/storage.ts' {
  interface Store {
    /** Labels and which tasks carry them. */
    labels: LabelRepo
  }
}

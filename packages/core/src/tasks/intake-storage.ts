import type { CustomField } from '../fields/schemas.ts'
import type { CustomFieldId, LabelId, OrgId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { ReadScope } from '../kernel/read-scope.ts'
import type { Label } from '../labels/schemas.ts'
import type { Team, WorkflowState } from '../teams/schemas.ts'
import type { TeamSettingsRecord } from '../teams/settings-schemas.ts'

/** What a new task names, for `TaskIntakeRepo.read`. */
export interface TaskIntakeRequest {
  teamId: TeamId
  projectId: ProjectId | null
  labelIds: readonly LabelId[]
  fieldIds: readonly CustomFieldId[]
}

/**
 * Everything a task's create checks, as the single reads it replaces answer it: the team as
 * `teams.get` without a scope (whoever may view it: the capability check's read), its settings record (`teamSettings.get`), its active workflow states in
 * board order (`states.listForTeam`), the project's placement (`projects.placement`), the named
 * labels the scope may view (`labels.getMany`) and the named custom fields (`customFields.getMany`).
 */
export interface TaskIntake {
  team: Team | null
  settings: TeamSettingsRecord | null
  states: WorkflowState[]
  project: { archived: boolean } | null
  labels: Label[]
  fields: CustomField[]
}

/** The create's one read before it writes (tasks/create.ts). */
export interface TaskIntakeRepo {
  read(orgId: OrgId, request: TaskIntakeRequest, scope: ReadScope): Promise<TaskIntake>
}

declare module '../kernel/storage.ts' {
  interface Store {
    taskIntake: TaskIntakeRepo
  }
}

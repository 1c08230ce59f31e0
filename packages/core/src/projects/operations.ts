import { Type } from '@sinclair/typebox'
import { FieldValuesInput } from '../fields/schemas.ts'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { LabelId, ProjectId, ProjectStatusId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations, subListOperation } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { Task } from '../tasks/schemas.ts'
import { type ClosingChoice, OPEN_TASK_POLICIES } from './closing.ts'
import { examples, projectExamples } from './examples.ts'
import { listProjectTasks, projectProgress } from './progress.ts'
import { Project, ProjectProgress, ProjectTeam } from './schemas.ts'
import {
  addProjectTeam,
  createProject,
  deleteProject,
  listProjects,
  listProjectTeams,
  type ProjectFields,
  type ProjectUpdateExtras,
  removeProjectTeam,
  requireProject,
  setProjectArchived,
  updateProject,
} from './service.ts'

const projectPath = '/v1/orgs/{orgId}/projects/{projectId}'
const projectTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'project' as const,
  id: params.projectId as string,
})

// The bodies take the project's own field schemas (kernel/body-fields.ts), so a client types what it
// sends and what it reads alike; the descriptions say what each field does in the request.
const editable = optionalFieldsOf(Project, {
  description: true,
  icon: true,
  color: true,
  statusId: 'An active project status; the first `backlog` status if left out on create.',
  leadId: 'An active member; setting it needs `assign`.',
  priority: true,
  startDate: 'Planned start.',
  targetDate: 'Planned end; not before `startDate`.',
  updateCadence: true,
  updateWeekday: true,
})

const projectResource = resourceOperations({
  name: 'project',
  plural: 'projects',
  tag: 'Projects',
  schema: Project,
  collectionPath: '/v1/orgs/{orgId}/projects',
  idParam: 'projectId',
  idBrand: 'ProjectId',
  target: (p) => ({ type: 'project', id: p.projectId! }),
  // `contribute` on the first team here; the service asks it on every other team of the body.
  createTarget: (_p, body) => ({ type: 'team', id: body.teamIds[0] as string, pointer: '/body/teamIds/0' }),
  requires: { create: '`contribute` on every team in `teamIds`, and `assign` on the first to set a lead' },
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: Type.Object(
    {
      ...fieldsOf(Project, {
        name: true,
        teamIds: {
          minItems: 1,
          maxItems: 20,
          uniqueItems: true,
          description: 'The teams it spans; the caller needs `contribute` on each.',
        },
      }),
      ...editable,
    },
    { $id: 'ProjectCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      ...optionalFieldsOf(Project, { name: true }),
      ...editable,
      // Inputs of the change itself, not fields of the project: write-only.
      openTasks: Type.Optional(
        StringEnum(OPEN_TASK_POLICIES, {
          writeOnly: true,
          description:
            'Write-only, with a `statusId` that completes or cancels the project: what happens to its open tasks. `keep` leaves ' +
            "them; `cancel` moves each to its team's first `canceled` state; `move` puts each in `moveTasksTo`.",
        }),
      ),
      moveTasksTo: Type.Optional(
        Type.Unsafe<ProjectId>({
          ...IdSchema(
            'ProjectId',
            'Write-only, with `openTasks: "move"`: the project the open tasks go to (`contribute` needed).',
          ),
          writeOnly: true,
        }),
      ),
      reason: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 2000,
          writeOnly: true,
          description:
            'Write-only, with a `statusId` that cancels the project: why. Carried by the `project.canceled` event, ' +
            'not stored on the project; sent with any other change it answers 422 `rule_violated`.',
        }),
      ),
      fields: Type.Optional(FieldValuesInput),
    },
    { $id: 'ProjectUpdate', additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    statusId: Type.Optional(IdSchema('ProjectStatusId', 'Only projects in this status.')),
    leadId: Type.Optional(
      Type.String({
        pattern: '^(none|mem_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A MemberId, or `none` for projects without a lead.',
      }),
    ),
    teamId: Type.Optional(IdSchema('TeamId', 'Only projects spanning this team.')),
    labelId: Type.Optional(IdSchema('LabelId', 'Only projects carrying this label.')),
    health: Type.Optional(
      StringEnum(['onTrack', 'atRisk', 'offTrack', 'none'] as const, {
        description:
          'Only projects whose latest unarchived status update has this health (`none`: without one).',
      }),
    ),
    blocked: Type.Optional(
      Type.Boolean({
        description: 'true: only projects with an open blocker (`openBlockers` > 0); false: only the others.',
      }),
    ),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived projects: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['not_found', 'archived', 'reference_not_found', 'rule_violated'],
    update: ['reference_not_found', 'open_work', 'archived', 'field_not_applicable', 'rule_violated'],
  },
  descriptions: {
    list:
      'The projects the caller can view (one of their teams is visible to the caller, or a grant on the project ' +
      'reaches them), newest first. `teamIds` ' +
      'names only the teams the caller can view.',
    get: 'A project the caller cannot view (none of its teams visible, no grant on it) is a 404, like a missing one.',
    create:
      'Creates a project spanning the teams in `teamIds`: the caller needs `contribute` on each, and `assign` on the first of them to set a `leadId` (an active member). ' +
      "Left out, `statusId` is the first active `backlog` status of the org, `priority` `none`, and `updateCadence` `orgDefault` (the org's update cadence) with `updateWeekday` `friday`. " +
      '`targetDate` may not be before `startDate` (422 `rule_violated`). An archived team is a 409 `archived`, a team the caller cannot view a 404, a status or lead that is not usable a 422 `reference_not_found`. ' +
      'The creator and the lead follow it (they are notified of its status updates) and the lead becomes a project member. Emits `project.created`.',
    update:
      'Moving to another status keeps `startedAt`, `completedAt` and `canceledAt` by its category; changing the lead ' +
      'needs `assign`. `updateCadence` and `updateWeekday` set when status updates are due. A project with open ' +
      'tasks (any task not completed, canceled or archived, hidden ones counted) is completed or canceled only with ' +
      '`openTasks`; without it the change answers 409 `open_work` with the counts by state category (`keep` leaves ' +
      "them; `cancel` moves each to its team's first `canceled` state; `move` puts each in `moveTasksTo`; the caller " +
      'needs `contribute` on every open task). A `statusId` that moves the project into a completed or canceled ' +
      'status from another category emits `project.completed` or `project.canceled` (with `changes`, the ' +
      '`openTasks` choice and, on cancel, the write-only `reason`) instead of `project.updated`. `fields` sets (or ' +
      'with null clears) custom field values: each field must be active (409 `archived`), take projects and apply ' +
      "to one of the project's teams (422 `field_not_applicable`); each change is recorded in the history as " +
      '`fields.<CustomFieldId>`.',
    archive: 'Hides the project from default lists; its milestones and tasks stay.',
    restore: 'Undoes `projects.archive`.',
    delete:
      'Needs `manage` on one of its teams. Deletes its milestones, relations and documents; its tasks stay in their teams ' +
      'without project or milestone.',
  },
  examples: projectExamples,
  handlers: {
    list: (ctx, _p, query) =>
      listProjects(ctx, {
        ...query,
        statusId: query.statusId as ProjectStatusId | undefined,
        teamId: query.teamId as TeamId | undefined,
        labelId: query.labelId as LabelId | undefined,
      }),
    get: (ctx, p) => requireProject(ctx, p.projectId as ProjectId),
    create: (ctx, _p, body) =>
      createProject(ctx, { ...(body as ProjectFields), name: body.name, teamIds: body.teamIds as TeamId[] }),
    update: (ctx, p, body) =>
      updateProject(
        ctx,
        p.projectId as ProjectId,
        body as ProjectFields & ClosingChoice & ProjectUpdateExtras,
      ),
    archive: (ctx, p) => setProjectArchived(ctx, p.projectId as ProjectId, true),
    restore: (ctx, p) => setProjectArchived(ctx, p.projectId as ProjectId, false),
    delete: (ctx, p) => deleteProject(ctx, p.projectId as ProjectId),
  },
})

const teamPath = `${projectPath}/teams/{teamId}`
const teamParams = Type.Object(paramsOf(teamPath), { additionalProperties: false })

const projectTeams: AnyOperation[] = [
  subListOperation({
    id: 'projects.teams.list',
    path: `${projectPath}/teams`,
    tag: 'Projects',
    summary: "List a project's teams",
    description: 'The teams the project spans that the caller may view, by team id.',
    item: ProjectTeam,
    itemName: 'ProjectTeam',
    examples: examples.teams,
    run: (ctx, params, query) => listProjectTeams(ctx, params.projectId as ProjectId, query),
  }),
  declareOperation({
    id: 'projects.teams.add',
    method: 'PUT',
    path: teamPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Add a team to a project',
    description:
      'Idempotent: adding a team the project spans already changes nothing, emits nothing and answers the same record (same `addedAt`). Needs `contribute` on the project and on the team.',
    params: teamParams,
    response: ProjectTeam,
    status: 200,
    capability: 'contribute',
    target: projectTarget,
    errors: ['not_found', 'archived'],
    examples: examples.teamAdd,
    run: (ctx, { params }) => addProjectTeam(ctx, params.projectId as ProjectId, params.teamId as TeamId),
  }),
  declareOperation({
    id: 'projects.teams.remove',
    method: 'DELETE',
    path: teamPath,
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Remove a team from a project',
    description:
      'A project keeps at least one team (409 `conflict`). Idempotent: a team the project does not span changes nothing (204, no event). Needs `manage` on the project.',
    params: teamParams,
    response: null,
    status: 204,
    capability: 'manage',
    target: projectTarget,
    errors: ['not_found', 'conflict'],
    run: async (ctx, { params }) => {
      await removeProjectTeam(ctx, params.projectId as ProjectId, params.teamId as TeamId)
      return undefined
    },
  }),
]

const projectReads: AnyOperation[] = [
  declareOperation({
    id: 'projects.progress',
    method: 'GET',
    path: `${projectPath}/progress`,
    tag: 'Projects',
    scope: 'work:read',
    summary: "A project's progress",
    description:
      'Task counts and estimate points of the project by state category, over the tasks the caller may view ' +
      '(archived tasks left out).',
    params: Type.Object(paramsOf(projectPath), { additionalProperties: false }),
    response: ProjectProgress,
    status: 200,
    errors: ['not_found'],
    examples: examples.progress,
    run: (ctx, { params }) => projectProgress(ctx, params.projectId as ProjectId),
  }),
  subListOperation({
    id: 'projects.tasks.list',
    path: `${projectPath}/tasks`,
    tag: 'Projects',
    summary: "List a project's tasks",
    description: 'The tasks of the project the caller may view, newest first, as `tasks.list` gives them.',
    item: Task,
    itemName: 'Task',
    examples: examples.tasks,
    query: {
      milestoneId: Type.Optional(
        Type.String({
          pattern: '^(none|mile_[0-9A-HJKMNP-TV-Z]{26})$',
          description: 'A MilestoneId, or `none` for tasks in no milestone.',
        }),
      ),
      archived: Type.Optional(
        StringEnum(['exclude', 'only', 'include'] as const, {
          default: 'exclude',
          description: 'Archived tasks: left out (default), only them, or both.',
        }),
      ),
    },
    run: (ctx, params, query) => listProjectTasks(ctx, params.projectId as ProjectId, query),
  }),
]

export const projectOperations: AnyOperation[] = [...projectResource, ...projectTeams, ...projectReads]

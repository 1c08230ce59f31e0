import { type TProperties, Type } from '@sinclair/typebox'
import { IdSchema, type ProjectId, type TaskId, type TeamId, type TemplateId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Name, Nullable } from '../kernel/schema-types.ts'
import { Project } from '../projects/schemas.ts'
import { convertTaskToProject, type DuplicateProjectInput, duplicateProject } from './copies.ts'
import {
  applyExample,
  convertTaskExample,
  duplicateProjectExample,
  saveAsTemplateExample,
  templateExamples,
} from './examples.ts'
import { recurrenceOperations } from './recurrences/operations.ts'
import { reminderOperations } from './reminders/operations.ts'
import {
  ProjectSkeleton,
  TaskSkeleton,
  Template,
  TemplateApplication,
  TemplateKindSchema,
} from './schemas.ts'
import {
  applyTemplate,
  createTemplate,
  deleteTemplate,
  listTemplates,
  requireTemplate,
  saveProjectAsTemplate,
  updateTemplate,
} from './templates.ts'

const TEMPLATES = 'Templates'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const tid = (p: Record<string, string>) => p.templateId as TemplateId
const TemplateName = Name('The template’s name, shown when choosing one.')
const TemplateDescription = Nullable(Type.String({ maxLength: 20_000 }), 'Markdown; null for none.')
const IsoDate = (description: string) => Type.String({ format: 'date', description })

const templatesPath = '/v1/orgs/{orgId}/templates'
const templatePath = `${templatesPath}/{templateId}`
const templates = resourceOperations({
  name: 'template',
  plural: 'templates',
  tag: TEMPLATES,
  schema: Template,
  collectionPath: templatesPath,
  idParam: 'templateId',
  idBrand: 'TemplateId',
  target: (p) => ({ type: 'template', id: p.templateId! }),
  createTarget: (_p, body) => ({ type: 'team', id: body.teamId as string, pointer: '/body/teamId' }),
  requires: { create: '`contribute` on the team named by `teamId`' },
  capabilities: { create: 'contribute', update: 'contribute', delete: 'manage' },
  createBody: Type.Object(
    {
      teamId: IdSchema('TeamId'),
      kind: TemplateKindSchema,
      name: TemplateName,
      description: Type.Optional(TemplateDescription),
      task: Type.Optional(TaskSkeleton),
      project: Type.Optional(ProjectSkeleton),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      name: Type.Optional(TemplateName),
      description: Type.Optional(TemplateDescription),
      task: Type.Optional(TaskSkeleton),
      project: Type.Optional(ProjectSkeleton),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    kind: Type.Optional(TemplateKindSchema),
    teamId: Type.Optional(IdSchema('TeamId')),
  },
  errors: {
    create: ['archived', 'not_found', 'reference_not_found', 'rule_violated'],
    update: ['rule_violated'],
    delete: ['conflict'],
  },
  descriptions: {
    list: 'Templates of the teams the caller can view, by name. The permission predicate is part of the query.',
    get: 'A template whose team the caller cannot view is a 404, like a missing one.',
    create:
      'A `task` template holds `task` (one task skeleton); a `project` template holds `project` (the project, ' +
      'its milestones and its tasks, each task optionally in a milestone by index). Dates are offsets in days ' +
      'from the day the template is applied. Needs `contribute` on the team. A body of the other kind, two milestones ' +
      'of one name or a milestone index past the list is 422 `rule_violated`.',
    update:
      'A new `task` or `project` replaces the whole skeleton. The kind cannot change. A body of the other kind, two milestones of one name or a milestone index past the list is 422 `rule_violated`.',
    delete: 'Needs `manage` on its team. A template that recurring work uses is a 409 until that is deleted.',
  },
  examples: templateExamples,
  handlers: {
    list: (ctx, _p, query) => listTemplates(ctx, query),
    get: (ctx, p) => requireTemplate(ctx, tid(p)),
    create: (ctx, _p, body) => createTemplate(ctx, body as never),
    update: (ctx, p, body) => updateTemplate(ctx, tid(p), body as never),
    delete: (ctx, p) => deleteTemplate(ctx, tid(p)),
  },
})

const templateActions: AnyOperation[] = [
  declareOperation({
    id: 'templates.apply',
    method: 'POST',
    path: `${templatePath}/apply`,
    tag: TEMPLATES,
    scope: 'work:write',
    summary: 'Apply a template',
    description:
      'Creates the template’s work as the caller, as `tasks.create`, `projects.create` and ' +
      '`projects.milestones.create` would, with every date offset counted from `startDate` (default today, UTC). ' +
      'A task template takes `teamId` and `title`; a project template takes `teamIds` and `name`. Needs ' +
      '`contribute` on the template’s team and on any other team named. A task template takes `teamId` and `title`, a project template `teamIds` and `name`; the other kind’s fields, or dates past the calendar, are 422 `rule_violated`.',
    params: obj(paramsOf(`${templatePath}/apply`)),
    body: Type.Object(
      {
        startDate: Type.Optional(IsoDate('The day offsets count from; default today (UTC).')),
        teamId: Type.Optional(IdSchema('TeamId')),
        title: Type.Optional(Name('Task templates: the task’s title instead of the template’s.', 255)),
        teamIds: Type.Optional(
          Type.Array(IdSchema('TeamId'), {
            minItems: 1,
            maxItems: 20,
            uniqueItems: true,
            description: 'Project templates: the project’s teams (its tasks go in the first).',
          }),
        ),
        name: Type.Optional(Name('Project templates: the project’s name instead of the template’s.')),
      },
      { additionalProperties: false },
    ),
    response: TemplateApplication,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'template', id: params.templateId }),
    errors: ['not_found', 'archived', 'reference_not_found', 'conflict', 'rule_violated'],
    examples: applyExample,
    run: (ctx, { params, body }) => applyTemplate(ctx, tid(params), (body ?? {}) as never),
  }),
  declareOperation({
    id: 'projects.saveAsTemplate',
    method: 'POST',
    path: '/v1/orgs/{orgId}/projects/{projectId}/save-as-template',
    tag: TEMPLATES,
    scope: 'work:write',
    summary: 'Save a project as a template',
    description:
      'A project template from the project as the caller sees it: its milestones, and its unarchived tasks ' +
      'with their milestones and priorities, dates as offsets from the project’s start (or creation day). ' +
      'The template goes in `teamId` (default the project’s first team). At most 50 milestones and 200 tasks. A project whose milestones share a name cannot be a template (422 `rule_violated`).',
    params: obj(paramsOf('/v1/orgs/{orgId}/projects/{projectId}')),
    body: Type.Object(
      {
        name: Type.Optional(TemplateName),
        teamId: Type.Optional(IdSchema('TeamId')),
      },
      { additionalProperties: false },
    ),
    response: Template,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'project', id: params.projectId }),
    errors: ['not_found', 'archived', 'conflict', 'rule_violated'],
    location: 'templates.get',
    examples: saveAsTemplateExample,
    run: (ctx, { params, body }) =>
      saveProjectAsTemplate(ctx, params.projectId as ProjectId, (body ?? {}) as never),
  }),
]

const copyOperations: AnyOperation[] = [
  declareOperation({
    id: 'projects.duplicate',
    method: 'POST',
    path: '/v1/orgs/{orgId}/projects/{projectId}/duplicate',
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Duplicate a project',
    description:
      'A new project with the source’s teams (those the caller can see), lead, priority, color, icon, cadence and ' +
      'labels, its milestones and (unless `tasks` is false) its open tasks as a skeleton (title, description, ' +
      'priority, milestone, due date), and (unless `members` is false) its members. Every date moves so the copy ' +
      'starts on `startDate` (default today, UTC). Named `Copy of …` unless `name` is given. Built as ' +
      '`projects.saveAsTemplate` and `templates.apply` would: at most 50 milestones and 200 tasks. Needs ' +
      '`contribute` on the project, and on its teams for the copy. The copy is held to the rules of `tasks.create` and `projects.create` (422 `rule_violated`).',
    params: obj(paramsOf('/v1/orgs/{orgId}/projects/{projectId}')),
    body: Type.Object(
      {
        name: Type.Optional(Name('The copy’s name; default `Copy of` and the source’s name.', 200)),
        startDate: Type.Optional(IsoDate('The day the copy starts; default today (UTC).')),
        tasks: Type.Optional(Type.Boolean({ default: true, description: 'Copy the open tasks.' })),
        members: Type.Optional(Type.Boolean({ default: true, description: 'Copy the members.' })),
      },
      { additionalProperties: false },
    ),
    response: Project,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'project', id: params.projectId }),
    errors: ['not_found', 'archived', 'reference_not_found', 'conflict', 'rule_violated'],
    location: 'projects.get',
    examples: duplicateProjectExample,
    run: (ctx, { params, body }) =>
      duplicateProject(ctx, params.projectId as ProjectId, (body ?? {}) as DuplicateProjectInput),
  }),
  declareOperation({
    id: 'tasks.convertToProject',
    method: 'POST',
    path: '/v1/orgs/{orgId}/tasks/{taskId}/convert-to-project',
    tag: 'Projects',
    scope: 'work:write',
    summary: 'Convert a task into a project',
    description:
      'A project from a task that grew: the task’s title (or `name`), description and priority, in the task’s ' +
      'team (or `teamIds`). The subtasks the caller can see become the project’s top-level tasks, the task is ' +
      'archived (a subtask the caller cannot see is detached from it), and the project’s `convertedFromTaskId` ' +
      'names it. Needs `contribute` on the task and its subtasks. The project is held to the rules of `projects.create` (422 `rule_violated`).',
    params: obj(paramsOf('/v1/orgs/{orgId}/tasks/{taskId}')),
    body: Type.Object(
      {
        name: Type.Optional(Name('The project’s name; default the task’s title.', 200)),
        teamIds: Type.Optional(
          Type.Array(IdSchema('TeamId'), {
            minItems: 1,
            maxItems: 20,
            uniqueItems: true,
            description: 'The project’s teams; default the task’s team.',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: Project,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'task', id: params.taskId }),
    errors: ['not_found', 'archived', 'reference_not_found', 'conflict', 'rule_violated'],
    location: 'projects.get',
    examples: convertTaskExample,
    run: (ctx, { params, body }) =>
      convertTaskToProject(
        ctx,
        params.taskId as TaskId,
        (body ?? {}) as { name?: string; teamIds?: TeamId[] },
      ),
  }),
]

/** Templates, recurring work and task reminders: docs/templates.md. */
export const templateOperations: AnyOperation[] = [
  ...templates,
  ...templateActions,
  ...copyOperations,
  ...recurrenceOperations,
  ...reminderOperations,
]

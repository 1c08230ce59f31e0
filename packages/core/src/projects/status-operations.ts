import { Type } from '@sinclair/typebox'
import { IdSchema, type ProjectStatusId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { resourceOperations } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Color } from '../teams/schemas.ts'
import { examples, statusExamples } from './examples.ts'
import { ProjectStatus, ProjectStatusCategorySchema, ProjectStatusName } from './schemas.ts'
import {
  createProjectStatus,
  listProjectStatuses,
  reorderProjectStatuses,
  requireProjectStatus,
  setProjectStatusArchived,
  updateProjectStatus,
} from './statuses.ts'

const Description = Nullable(Type.String({ maxLength: 2000 }), 'Markdown.')
const statusesPath = '/v1/orgs/{orgId}/project-statuses'

const statusResource = resourceOperations({
  name: 'project status',
  plural: 'projectStatuses',
  summaries: { list: 'List project statuses' },
  tag: 'Project statuses',
  schema: ProjectStatus,
  collectionPath: statusesPath,
  idParam: 'statusId',
  idBrand: 'ProjectStatusId',
  // Statuses are the org's vocabulary: changing it is an org admin's call.
  target: () => ({ type: 'org' }),
  capabilities: { create: 'manage', update: 'manage', archive: 'manage', restore: 'manage' },
  createBody: Type.Object(
    {
      name: ProjectStatusName,
      category: ProjectStatusCategorySchema,
      color: Type.Optional(Color),
      description: Type.Optional(Description),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      name: Type.Optional(ProjectStatusName),
      color: Type.Optional(Color),
      description: Type.Optional(Description),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived statuses: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['conflict'],
    update: ['conflict'],
    archive: ['last_project_status', 'project_status_in_use'],
  },
  descriptions: {
    list: "The org's project statuses by `position`; the default set is created on first use.",
    get: 'One project status: its name, category, colour and position. Every member reads them; the default set is created on first use.',
    create: 'Added last; the name is unique in the org, ignoring case. Needs `manage` on the org.',
    update: 'The category cannot change.',
    archive:
      'Refused for the last active status of its category (`last_project_status`) and while projects are in it ' +
      '(`project_status_in_use`).',
    restore: 'Undoes `projectStatuses.archive`.',
  },
  examples: statusExamples,
  handlers: {
    list: (ctx, _p, query) => listProjectStatuses(ctx, query),
    get: (ctx, p) => requireProjectStatus(ctx, p.statusId as ProjectStatusId),
    create: (ctx, _p, body) => createProjectStatus(ctx, body),
    update: (ctx, p, body) => updateProjectStatus(ctx, p.statusId as ProjectStatusId, body),
    archive: (ctx, p) => setProjectStatusArchived(ctx, p.statusId as ProjectStatusId, true),
    restore: (ctx, p) => setProjectStatusArchived(ctx, p.statusId as ProjectStatusId, false),
  },
})

const ProjectStatusList = Type.Object(
  { data: Type.Array(ProjectStatus) },
  { $id: 'ProjectStatusList', additionalProperties: false },
)

const reorder = declareOperation({
  id: 'projectStatuses.reorder',
  method: 'POST',
  path: `${statusesPath}/reorder`,
  tag: 'Project statuses',
  scope: 'work:write',
  summary: "Reorder the org's project statuses",
  description: '`statusIds` lists every active project status of the org once, in the new order.',
  params: Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false }),
  body: Type.Object(
    { statusIds: Type.Array(IdSchema('ProjectStatusId'), { minItems: 1, maxItems: 100 }) },
    { additionalProperties: false },
  ),
  response: ProjectStatusList,
  status: 200,
  capability: 'manage',
  errors: [],
  examples: examples.reorder,
  run: async (ctx, { body }) => ({
    data: await reorderProjectStatuses(ctx, body.statusIds as ProjectStatusId[]),
  }),
})

export const projectStatusOperations: AnyOperation[] = [...statusResource, reorder]

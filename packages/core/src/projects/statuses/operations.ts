import { Type } from '@sinclair/typebox'
import type { ProjectStatusId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { paramsOf, resourceOperations } from '../../kernel/resource.ts'
import { Nullable, StringEnum } from '../../kernel/schema-types.ts'
import { Color } from '../../teams/schemas.ts'
import { examples, statusExamples } from '../examples.ts'
import { ProjectStatus, ProjectStatusCategorySchema, ProjectStatusName } from '../schemas.ts'
import {
  createProjectStatus,
  listProjectStatuses,
  moveProjectStatus,
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

const statusPath = `${statusesPath}/{statusId}`

const move = declareOperation({
  id: 'projectStatuses.move',
  method: 'POST',
  path: `${statusPath}/move`,
  tag: 'Project statuses',
  scope: 'work:write',
  summary: 'Move a project status before or after another',
  description:
    'Puts the status just before `beforeId` or just after `afterId` (exactly one), another active status of the org; ' +
    "the org's active statuses are renumbered from 0. An archived status does not move (409 `archived`). A move that " +
    'changes nothing emits nothing; otherwise `project_status.moved` carries the new order. Needs `manage` on the org.',
  params: Type.Object(paramsOf(statusPath), { additionalProperties: false }),
  body: MoveBody('ProjectStatusId', 'project status'),
  response: ProjectStatus,
  status: 200,
  capability: 'manage',
  errors: ['not_found', 'reference_not_found', 'archived'],
  examples: examples.move,
  run: (ctx, { params, body }) =>
    moveProjectStatus(ctx, params.statusId as ProjectStatusId, {
      beforeId: body.beforeId as ProjectStatusId | undefined,
      afterId: body.afterId as ProjectStatusId | undefined,
    }),
})

export const projectStatusOperations: AnyOperation[] = [...statusResource, move]

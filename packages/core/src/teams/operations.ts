import { Type } from '@sinclair/typebox'
import type { StateId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Color, StateCategorySchema, TEAM_STATES_MAX, Team, TeamKey, WorkflowState } from './schemas.ts'
import {
  archiveState,
  createState,
  createTeam,
  listStates,
  listTeams,
  reorderStates,
  requireState,
  requireTeam,
  setTeamArchived,
  updateState,
  updateTeam,
} from './service.ts'
import { teamSettingsOperations } from './settings-operations.ts'

const TeamName = Type.String({ minLength: 1, maxLength: 120 })
const Description = Nullable(Type.String({ maxLength: 10_000 }), 'Markdown.')
const ArchivedQuery = Type.Optional(
  StringEnum(['exclude', 'only', 'include'] as const, {
    default: 'exclude',
    description: 'Archived records: left out (default), only them, or both.',
  }),
)

const teamOperations = resourceOperations({
  name: 'team',
  plural: 'teams',
  tag: 'Teams',
  schema: Team,
  collectionPath: '/v1/orgs/{orgId}/teams',
  idParam: 'teamId',
  idBrand: 'TeamId',
  target: (p) => ({ type: 'team', id: p.teamId! }),
  createTarget: () => ({ type: 'org' }),
  capabilities: { create: 'manage', update: 'manage', archive: 'manage', restore: 'manage' },
  createBody: Type.Object(
    { name: TeamName, key: TeamKey, description: Type.Optional(Description) },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    { name: Type.Optional(TeamName), key: Type.Optional(TeamKey), description: Type.Optional(Description) },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: { archived: ArchivedQuery },
  errors: { create: ['key_taken'], update: ['key_taken'] },
  handlers: {
    list: (ctx, _p, query) => listTeams(ctx, query),
    get: (ctx, p) => requireTeam(ctx, p.teamId as TeamId),
    create: (ctx, _p, body) => createTeam(ctx, body),
    update: (ctx, p, body) => updateTeam(ctx, p.teamId as TeamId, body),
    archive: (ctx, p) => setTeamArchived(ctx, p.teamId as TeamId, true),
    restore: (ctx, p) => setTeamArchived(ctx, p.teamId as TeamId, false),
  },
})

const StateName = Type.String({ minLength: 1, maxLength: 60 })
const teamStatesPath = '/v1/orgs/{orgId}/teams/{teamId}/states'
const WorkflowStateList = Type.Object(
  { data: Type.Array(WorkflowState, { maxItems: TEAM_STATES_MAX }) },
  { $id: 'WorkflowStateList', additionalProperties: false },
)

const stateOperations: AnyOperation[] = [
  declareOperation({
    id: 'workflowStates.list',
    method: 'GET',
    path: teamStatesPath,
    tag: 'Workflow states',
    scope: 'work:read',
    summary: "List a team's workflow states",
    description: 'In workflow order. A team has a handful of states, so this list is not paginated.',
    params: Type.Object(paramsOf(teamStatesPath), { additionalProperties: false }),
    query: Type.Object(
      { includeArchived: Type.Optional(Type.Boolean({ default: false })) },
      { additionalProperties: false },
    ),
    response: WorkflowStateList,
    status: 200,
    errors: ['not_found'],
    run: async (ctx, { params, query }) => ({
      data: await listStates(ctx, params.teamId as TeamId, query.includeArchived ?? false),
    }),
  }),
  declareOperation({
    id: 'workflowStates.reorder',
    method: 'POST',
    path: `${teamStatesPath}/reorder`,
    tag: 'Workflow states',
    scope: 'work:write',
    summary: "Reorder a team's workflow states",
    description: '`stateIds` lists every active state of the team once, in the new order.',
    params: Type.Object(paramsOf(teamStatesPath), { additionalProperties: false }),
    body: Type.Object(
      { stateIds: Type.Array(IdSchema('StateId'), { minItems: 1, maxItems: TEAM_STATES_MAX }) },
      { additionalProperties: false },
    ),
    response: WorkflowStateList,
    status: 200,
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    errors: ['not_found'],
    run: async (ctx, { params, body }) => ({
      data: await reorderStates(ctx, params.teamId as TeamId, body.stateIds as StateId[]),
    }),
  }),
  ...resourceOperations({
    name: 'workflow state',
    plural: 'workflowStates',
    tag: 'Workflow states',
    schema: WorkflowState,
    collectionPath: teamStatesPath,
    itemPath: '/v1/orgs/{orgId}/states',
    idParam: 'stateId',
    idBrand: 'StateId',
    target: (p) => ({ type: 'workflowState', id: p.stateId! }),
    createTarget: (p) => ({ type: 'team', id: p.teamId! }),
    capabilities: { create: 'manage', update: 'manage', archive: 'manage' },
    createBody: Type.Object(
      {
        name: StateName,
        category: StateCategorySchema,
        color: Type.Optional(Color),
        description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
        position: Type.Optional(
          Type.Integer({ minimum: 0, description: 'Where to insert it; the end by default.' }),
        ),
      },
      { additionalProperties: false },
    ),
    updateBody: Type.Object(
      {
        name: Type.Optional(StateName),
        color: Type.Optional(Color),
        description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    errors: {
      create: ['key_taken', 'conflict'],
      update: ['key_taken'],
      archive: ['state_in_use', 'last_state'],
    },
    handlers: {
      get: (ctx, p) => requireState(ctx, p.stateId as StateId),
      create: (ctx, p, body) => createState(ctx, p.teamId as TeamId, body),
      update: (ctx, p, body) => updateState(ctx, p.stateId as StateId, body),
      archive: (ctx, p) => archiveState(ctx, p.stateId as StateId),
    },
  }),
]

export const teamsCatalogue: AnyOperation[] = [
  ...teamOperations,
  ...stateOperations,
  ...teamSettingsOperations,
]

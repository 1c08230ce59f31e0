import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { StateId, TeamId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { MoveBody } from '../kernel/ordering.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { teamExamples, workflowStateExamples } from './examples.ts'
import { TEAM_STATES_MAX, Team, WorkflowState } from './schemas.ts'
import {
  archiveState,
  createState,
  createTeam,
  listStates,
  listTeams,
  moveState,
  requireState,
  requireTeam,
  setTeamArchived,
  updateState,
  updateTeam,
} from './service.ts'
import { teamSettingsOperations } from './settings-operations.ts'

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
  // The bodies take the team's own field schemas (kernel/body-fields.ts): one type to send and read.
  createBody: Type.Object(
    { ...fieldsOf(Team, { name: true, key: true }), ...optionalFieldsOf(Team, { description: true }) },
    { $id: 'TeamCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(optionalFieldsOf(Team, { name: true, key: true, description: true }), {
    $id: 'TeamUpdate',
    additionalProperties: false,
    minProperties: 1,
  }),
  listQuery: { archived: ArchivedQuery },
  errors: { create: ['key_taken'], update: ['key_taken'] },
  descriptions: {
    list: 'The teams the caller can view, oldest first: owners, admins and members see every team, a guest or an agent only the teams a grant reaches. Archived teams are left out unless `archived` is `only` or `include`.',
    get: 'One team: its name, key and description, and `archivedAt` when archived. A team the caller cannot view is a 404.',
    create:
      'Creates a team with its task key prefix (`key`, `ENG` gives tasks `ENG-1`, `ENG-2`, …; unique in the workspace, else 409 `key_taken`) and the default workflow: ' +
      'Backlog, Todo, In Progress, In Review, Done, Canceled and Duplicate. Nobody is added to it: add people with `teams.members.add`. Emits `team.created` and a `workflow_state.created` per state.',
    update:
      'Renames the team, changes its description or its key (409 `key_taken` when another team uses it). Emits `team.updated` with the changes.',
    archive:
      'An archived team keeps its tasks, readable as before, but takes no new tasks, projects, cycles, labels or templates (409 `archived`) and is left out of `teams.list` by default. Archiving an archived team changes nothing. Emits `team.archived`.',
    restore:
      'Makes an archived team take new work again; restoring a team that is not archived changes nothing. Emits `team.restored`.',
  },
  examples: teamExamples,
  handlers: {
    list: (ctx, _p, query) => listTeams(ctx, query),
    get: (ctx, p) => requireTeam(ctx, p.teamId as TeamId),
    create: (ctx, _p, body) => createTeam(ctx, body),
    update: (ctx, p, body) => updateTeam(ctx, p.teamId as TeamId, body),
    archive: (ctx, p) => setTeamArchived(ctx, p.teamId as TeamId, true),
    restore: (ctx, p) => setTeamArchived(ctx, p.teamId as TeamId, false),
  },
})

const teamStatesPath = '/v1/orgs/{orgId}/teams/{teamId}/states'
const statePath = '/v1/orgs/{orgId}/states/{stateId}'
const WorkflowStateList = Type.Object(
  { data: Type.Array(WorkflowState, { maxItems: TEAM_STATES_MAX }) },
  { $id: 'WorkflowStateList', additionalProperties: false },
)

const stateOperations: AnyOperation[] = [
  declareOperation({
    id: 'states.list',
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
    examples: workflowStateExamples.list,
    run: async (ctx, { params, query }) => ({
      data: await listStates(ctx, params.teamId as TeamId, query.includeArchived ?? false),
    }),
  }),
  ...resourceOperations({
    name: 'workflow state',
    plural: 'states',
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
        ...fieldsOf(WorkflowState, { name: true, category: true }),
        ...optionalFieldsOf(WorkflowState, { color: true, description: true }),
        position: Type.Optional(
          Type.Integer({
            minimum: 0,
            description: 'Where to insert it; the end by default. To move it later: `states.move`.',
          }),
        ),
      },
      { $id: 'StateCreate', additionalProperties: false },
    ),
    updateBody: Type.Object(optionalFieldsOf(WorkflowState, { name: true, color: true, description: true }), {
      $id: 'StateUpdate',
      additionalProperties: false,
      minProperties: 1,
    }),
    errors: {
      create: ['key_taken', 'conflict'],
      update: ['key_taken'],
      archive: ['state_in_use', 'last_state'],
    },
    descriptions: {
      get: "One workflow state: its name, category, colour and position in the team's workflow. It is as visible as its team.",
      create:
        "Adds a state to the team's workflow, at `position` (the end by default; the states after it move down). Its name is unique among the team's active states, whatever the case (409 `key_taken`); a team holds at most 100 states, archived ones included (409 `conflict`). " +
        'The `category` (`triage`, `backlog`, `unstarted`, `started`, `completed`, `canceled`) decides what moving a task into it means. Emits `workflow_state.created`.',
      update:
        'Renames a state, or changes its colour or description; its category never changes. A name another active state of the team has is a 409 `key_taken`. Emits `workflow_state.updated`.',
      archive:
        'Takes a state out of the workflow: tasks can no longer move into it. Refused while tasks are in it (409 `state_in_use`, with `taskCount`: move them first) and for the last active state of the team (409 `last_state`). ' +
        'Archiving an archived state changes nothing. Emits `workflow_state.archived`.',
    },
    examples: workflowStateExamples,
    handlers: {
      get: (ctx, p) => requireState(ctx, p.stateId as StateId),
      create: (ctx, p, body) => createState(ctx, p.teamId as TeamId, body),
      update: (ctx, p, body) => updateState(ctx, p.stateId as StateId, body),
      archive: (ctx, p) => archiveState(ctx, p.stateId as StateId),
    },
  }),
  declareOperation({
    id: 'states.move',
    method: 'POST',
    path: `${statePath}/move`,
    tag: 'Workflow states',
    scope: 'work:write',
    summary: 'Move a workflow state before or after another',
    description:
      'Puts the state just before `beforeId` or just after `afterId` (exactly one), another active state of the same team; ' +
      "the team's workflow is one order across categories, renumbered from 0. An archived state has no place to move " +
      '(409 `archived`). A move that changes nothing emits nothing; otherwise `workflow_state.moved` carries the new order. ' +
      'Needs `manage` on the team.',
    params: Type.Object(paramsOf(statePath), { additionalProperties: false }),
    body: MoveBody('StateId', 'workflow state'),
    response: WorkflowState,
    status: 200,
    capability: 'manage',
    target: ({ params }) => ({ type: 'workflowState', id: params.stateId as string }),
    errors: ['not_found', 'reference_not_found', 'archived'],
    examples: workflowStateExamples.move,
    run: (ctx, { params, body }) =>
      moveState(ctx, params.stateId as StateId, {
        beforeId: body.beforeId as StateId | undefined,
        afterId: body.afterId as StateId | undefined,
      }),
  }),
]

export const teamsCatalogue: AnyOperation[] = [
  ...teamOperations,
  ...stateOperations,
  ...teamSettingsOperations,
]

import { Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { applyExample, resolveExample } from './examples.ts'
import { NAME_KINDS, type NameKind, resolveName } from './refs.ts'
import { PLAN_MAX_STEPS, PlanReport, PlanRequest, ResolvedName } from './schemas.ts'
import { applyPlan } from './service.ts'

const orgParams = Type.Object({ orgId: IdSchema('OrgId') }, { additionalProperties: false })

const resolveOperation = declareOperation({
  id: 'names.resolve',
  method: 'GET',
  path: '/v1/orgs/{orgId}/names',
  tag: 'Organize',
  scope: 'work:read',
  summary: 'Resolve a name to an id',
  description:
    'Finds the one record a name means: a team by key or name, a workflow state by name within `team`, a person by email, name or `me`, a task by key (`ENG-42`), an agent by name, a label by name (`Bug`, or `Size/Large` in a group; with `team`, a label of that team wins over an org label of that name, and without it a name several teams use is ambiguous), a cycle of `team` by number (`3`, `Cycle 3`), name, `current`, `next` or `previous`, a project by name, a milestone by name (within `project` when given; otherwise among every project you can view, `Project/Milestone` also works), a program by name, an initiative by name or `Parent/Child` path. Ids are accepted too. Only what you can view is considered. Several matches: 422 `ambiguous_name` with `candidates`; none: 422 `unknown_name` with the closest names as `candidates`. A state or cycle is named within its team: without `team` it is 422 `rule_violated`.',
  params: orgParams,
  query: Type.Object(
    {
      kind: StringEnum(NAME_KINDS, { description: 'What the name is of.' }),
      name: Type.String({ minLength: 1, maxLength: 320 }),
      team: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 120,
          description:
            'For a state or cycle: its team (key, name or id); for a label: the team whose tasks it is for.',
        }),
      ),
      archived: Type.Optional(
        Type.Boolean({
          default: false,
          description: 'For a label: look among archived labels instead (to restore one).',
        }),
      ),
      project: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 200,
          description: 'For a milestone: its project (name or id).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: ResolvedName,
  status: 200,
  errors: ['ambiguous_name', 'unknown_name', 'rule_violated'],
  examples: resolveExample,
  run: (ctx, { query }) =>
    resolveName(ctx, query.kind as NameKind, query.name, query.team, query.archived ?? false, query.project),
})

const applyOperation = declareOperation({
  id: 'plans.apply',
  method: 'POST',
  path: '/v1/orgs/{orgId}/plans',
  tag: 'Organize',
  scope: 'work:write',
  summary: 'Apply a plan of changes atomically',
  requires: 'for each step, the capability the operation it stands for needs',
  description: `Applies up to ${PLAN_MAX_STEPS} steps (create, update, move, assign, archive and restore tasks; label and unlabel them; link and unlink them (blocks, blocked by, related, duplicate of); set a parent; comment; create cycles and add or remove tasks; create, update and archive labels; create teams and workflow states; subscribe people, add URL links, react to tasks and comments, resolve comment threads; create projects and milestones, put tasks in a project or milestone, post a project status update with its health) in one transaction: all or nothing. Steps name records as people do (\`ENG-42\`, \`Engineering\`, \`ada@example.com\`, \`me\`); a step may name what it creates with \`handle\` and later steps refer to it as \`$handle\`. Every name is resolved before anything runs, and each step runs the operation it stands for with that operation's permission checks. A failing step answers with that operation's problem, its \`step\` index and pointers under \`/body/steps/{i}\`, and nothing is changed. \`dryRun: true\` runs everything and rolls it back, returning the same report. A step with fields its action does not use, without the ones it needs, or with a \`$handle\` no earlier step declares is 422 \`rule_violated\`, as is a rule of the operation a step stands for.`,
  params: orgParams,
  body: PlanRequest,
  response: PlanReport,
  status: 200,
  errors: [
    'ambiguous_name',
    'unknown_name',
    'reference_not_found',
    'capability_required',
    'key_taken',
    'archived',
    'not_found',
    'dependency_cycle',
    'already_exists',
    'subtask_cycle',
    'subtask_depth',
    'cycle_overlap',
    'cycle_completed',
    'label_name_taken',
    'comment_not_root',
    'comment_deleted',
    'conflict',
    'rule_violated',
  ],
  examples: applyExample,
  run: (ctx, { body }) => applyPlan(ctx, body),
})

export const plansCatalogue: AnyOperation[] = [resolveOperation, applyOperation]

import { type Static, type TObject, type TProperties, type TSchema, Type } from '@sinclair/typebox'
import { CAPABILITIES } from '../capabilities.ts'
import type { ProblemCode } from './codes.ts'

// The members a problem document carries beside `type`, `title`, `status`, `detail`, `code` and
// `errors`, per code: the OpenAPI document types the problem as a union discriminated by `code`, so a
// typed client reads `candidates` of an `unknown_name` without a cast. A code not listed carries none.

const Count = (description: string) => Type.Integer({ minimum: 0, description })
const Capability = (description: string) => Type.String({ enum: [...CAPABILITIES], description })
const IdPath = Type.Array(Type.Union([Type.String(), Type.Null()], { type: ['string', 'null'] }), {
  description: 'The ids along the loop the change would close, in order; null where one is hidden.',
})
const Candidates = Type.Array(
  Type.Object({ id: Type.String(), label: Type.String() }, { additionalProperties: false }),
  { description: 'Records the name could mean (ambiguous) or the closest ones (unknown), by id and label.' },
)
const NameLookup = {
  kind: Type.String({ description: 'What was looked up: `team`, `person`, `state`, `workspace`, …' }),
  name: Type.String({ description: 'The name as given.' }),
  candidates: Candidates,
}

/**
 * Every member optional: a code is raised in several places, and not every place knows every member
 * (a label group conflict found in one request has no count of tasks). The schema types what comes.
 */
const optional = (properties: TProperties): TProperties =>
  Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v as TSchema)]))

const EXTENSIONS = {
  invalid_identifier: {
    expectedType: Type.Optional(Type.String({ description: 'The id type the field takes, e.g. `TaskId`.' })),
    lookup: Type.Optional(
      Type.String({
        description:
          'When the value is recognisably something else (a workspace slug, a task key, a team key): the read that finds the id, as `METHOD path`, e.g. `GET /v1/orgs`.',
      }),
    ),
  },
  insufficient_scope: { requiredScope: Type.String({ description: 'The scope the operation needs.' }) },
  capability_required: {
    capability: Capability('The capability the action needs on its target.'),
    held: Type.Optional(
      Type.Union([Capability('The capability held there.'), Type.Null()], {
        type: ['string', 'null'],
        description: 'The capability the caller holds on the target; null for none.',
      }),
    ),
    role: Type.Optional(Type.String({ description: 'The org role the action needs, where a role decides.' })),
    refusedTasks: Type.Optional(Count('Open tasks the caller may not change, when closing a project.')),
  },
  already_exists: {
    relationId: Type.Optional(Type.String({ description: 'The existing relation.' })),
    grantId: Type.Optional(Type.String({ description: 'The existing grant.' })),
  },
  conflict: {
    state: Type.Optional(Type.String({ description: 'The state that refuses the change, e.g. `accepted`.' })),
    statusCategory: Type.Optional(
      Type.String({ description: "The record's status category that refuses it, e.g. `completed`." }),
    ),
    awayId: Type.Optional(Type.String({ description: 'The away period the new one overlaps.' })),
  },
  document_locked: {
    lockedById: Type.String({ description: 'Who locked the document.' }),
    lockedAt: Type.String({ description: 'When it was locked.' }),
  },
  state_in_use: { taskCount: Count('Tasks still in the state.') },
  label_group_conflict: { taskCount: Count('Tasks that would carry two labels of the group.') },
  project_status_in_use: { projectCount: Count('Projects still in the status.') },
  approval_closed: { state: Type.String({ description: 'The request’s state: approved, rejected, …' }) },
  cycle_overlap: { conflictingCycleId: Type.String({ description: 'The cycle whose dates overlap.' }) },
  dependency_cycle: { path: IdPath },
  subtask_cycle: { path: IdPath },
  initiative_cycle: { path: IdPath },
  update_already_requested: {
    requestedAt: Type.String({ format: 'date-time', description: 'When the open request was made.' }),
  },
  subtask_depth: { maxLevels: Count('How deep subtasks may nest.') },
  initiative_depth: {
    limit: Count('How deep initiatives may nest.'),
    levels: Count('How deep the change would make it.'),
  },
  has_children: {
    openChildren: Count('Open subtasks.'),
    choices: Type.Array(Type.String(), { description: 'What the request may say happens to them.' }),
  },
  open_work: {
    openTasks: Count('Open tasks in the project.'),
    byCategory: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Open tasks per state category.',
    }),
    choices: Type.Array(Type.String(), {
      description: 'What the request may say happens to them (`openTasks`).',
    }),
  },
  comment_not_root: { rootId: Type.String({ description: 'The root comment of the thread.' }) },
  cursor_expired: {
    orgId: Type.String({ description: 'The workspace whose stream the cursor is in.' }),
    oldestSeq: Type.Integer({
      description: 'The oldest sequence still retained: resume from here or reload.',
    }),
  },
  payload_too_large: { maxBytes: Count('The largest body accepted, in bytes.') },
  rate_limited: {
    retryAfter: Type.Optional(Count('Seconds until the next attempt may succeed (also in `Retry-After`).')),
  },
  ambiguous_name: NameLookup,
  unknown_name: NameLookup,
} satisfies Partial<Record<ProblemCode, TProperties>>

export const PROBLEM_EXTENSIONS: Partial<Record<ProblemCode, TProperties>> = Object.fromEntries(
  Object.entries(EXTENSIONS).map(([code, properties]) => [code, optional(properties)]),
)

/** Members any problem may carry, whatever its code: where in a batch or a plan it happened. */
export const COMMON_PROBLEM_EXTENSIONS = {
  requestId: Type.Optional(
    Type.String({
      description:
        'The request, as in the `X-Request-Id` response header: quote it when reporting a problem.',
    }),
  ),
  step: Type.Optional(
    Type.Integer({ minimum: 0, description: 'The plan step that failed (`plans.apply`).' }),
  ),
  failedItems: Type.Optional(
    Type.Array(
      Type.Object({ index: Type.Integer({ minimum: 0 }), code: Type.String(), detail: Type.String() }),
      { description: 'Every refused item of a batch, by index (`tasks.batchCreate`, `tasks.batchUpdate`).' },
    ),
  ),
  unresolved: Type.Optional(
    Type.Array(Type.Object({ pointer: Type.String(), code: Type.String(), candidates: Candidates }), {
      description: 'Every name of a plan that could not be resolved, with candidates.',
    }),
  ),
} satisfies TProperties

type Members<P extends TProperties> = Partial<Static<TObject<P>>>

/**
 * What a problem with this code may carry besides the standard members: what the OpenAPI document
 * declares for it, plus the members any problem may carry. `ProblemError` takes its extensions in this
 * type, so a member the document does not declare fails to compile where it is raised.
 */
export type ProblemExtensionsOf<C extends ProblemCode> = (C extends keyof typeof EXTENSIONS
  ? Members<(typeof EXTENSIONS)[C]>
  : unknown) &
  Members<typeof COMMON_PROBLEM_EXTENSIONS>

import { Type } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { CycleId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { Task } from '../tasks/schemas.ts'
import { getCycleSettings, updateCycleSettings } from './cadence.ts'
import { cycleExamples, cycleSettingsExamples } from './examples.ts'
import { setCycleArchived, shiftCycles, startCycleNow } from './reschedule.ts'
import { completeCycle } from './rollover.ts'
import { CYCLE_STATUSES, Cycle, CycleProgress, CycleSettings, WEEKDAYS } from './schemas.ts'
import { createCycle, cycleProgress, deleteCycle, listCycles, requireCycle, updateCycle } from './service.ts'

// The bodies take the cycle's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(Cycle, {
  name: { minLength: 1, description: 'Optional; clients show `Cycle {number}` without one.' },
  description: true,
})
const teamCyclesPath = '/v1/orgs/{orgId}/teams/{teamId}/cycles'
const cyclePath = '/v1/orgs/{orgId}/cycles/{cycleId}'
const cycleParams = Type.Object(paramsOf(cyclePath), { additionalProperties: false })
const cycleTarget = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'cycle' as const,
  id: params.cycleId as string,
})

const cycleResource = resourceOperations({
  name: 'cycle',
  plural: 'cycles',
  tag: 'Cycles',
  schema: Cycle,
  collectionPath: teamCyclesPath,
  itemPath: '/v1/orgs/{orgId}/cycles',
  idParam: 'cycleId',
  idBrand: 'CycleId',
  target: (p) => ({ type: 'cycle', id: p.cycleId! }),
  createTarget: (p) => ({ type: 'team', id: p.teamId! }),
  capabilities: {
    create: 'assign',
    update: 'assign',
    archive: 'assign',
    restore: 'assign',
    delete: 'manage',
  },
  createBody: Type.Object(
    {
      ...editable,
      ...fieldsOf(Cycle, { startsAt: 'Start (inclusive).', endsAt: 'End (exclusive); after `startsAt`.' }),
    },
    { $id: 'CycleCreate', additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      ...editable,
      ...optionalFieldsOf(Cycle, { startsAt: 'Start (inclusive).', endsAt: 'End (exclusive).' }),
    },
    { $id: 'CycleUpdate', additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    status: Type.Optional(
      StringEnum(CYCLE_STATUSES, { description: "Only cycles with this status at the request's time." }),
    ),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
        description: 'Archived cycles: left out (default), only them, or both.',
      }),
    ),
  },
  errors: {
    create: ['cycle_overlap', 'archived', 'rule_violated'],
    update: ['cycle_overlap', 'cycle_completed', 'rule_violated'],
    archive: ['conflict'],
  },
  descriptions: {
    list: "The team's cycles by start time, earliest first; `status` keeps the `upcoming`, `active`, `past` or `completed` ones at the time of the request. Archived cycles are left out unless `archived` asks for them. A team the caller cannot view is a 404.",
    get: 'One cycle, with its number in the team, its window and its status at the time of the request.',
    update:
      'Renames the cycle or moves its window; `endsAt` stays after `startsAt` (else 422 `rule_violated`), and a window that overlaps another cycle of the team is a 409 `cycle_overlap`.',
    create:
      "Plans a cycle for the team from `startsAt` (inclusive) to `endsAt` (exclusive, after it: else 422 `rule_violated`), numbered after the team's last. " +
      'A window that overlaps another cycle of the team is a 409 `cycle_overlap`; an archived team is a 409 `archived`. Emits `cycle.created`.',
    delete: 'Deletes the cycle for good; its tasks stay, in no cycle. Emits `cycle.deleted`.',
    archive:
      'Only a completed cycle can be archived (409 `conflict` otherwise). It leaves `cycles.list` unless ' +
      '`archived` asks for it; its tasks keep their `cycleId`, and it still counts in burndown and velocity.',
    restore: 'Brings an archived cycle back into `cycles.list`.',
  },
  examples: cycleExamples,
  handlers: {
    list: (ctx, p, query) => listCycles(ctx, p.teamId as TeamId, query),
    get: (ctx, p) => requireCycle(ctx, p.cycleId as CycleId),
    create: (ctx, p, body) => createCycle(ctx, p.teamId as TeamId, body),
    update: (ctx, p, body) => updateCycle(ctx, p.cycleId as CycleId, body),
    archive: (ctx, p) => setCycleArchived(ctx, p.cycleId as CycleId, true),
    restore: (ctx, p) => setCycleArchived(ctx, p.cycleId as CycleId, false),
    delete: (ctx, p) => deleteCycle(ctx, p.cycleId as CycleId),
  },
})

const CycleCompletion = Type.Object(
  {
    cycle: Cycle,
    nextCycleId: Nullable(
      IdSchema('CycleId'),
      'Where unfinished tasks went; null when the team has neither a next cycle nor a cadence.',
    ),
    rolledOverTaskIds: Type.Array(IdSchema('TaskId'), { description: 'The unfinished tasks that moved.' }),
  },
  { $id: 'CycleCompletion', additionalProperties: false },
)

const CycleStart = Type.Object(
  {
    cycle: Cycle,
    completedCycleId: Nullable(
      IdSchema('CycleId'),
      'The cycle that was running and is now completed; null when none was running.',
    ),
    rolledOverTaskIds: Type.Array(IdSchema('TaskId'), {
      description: "The completed cycle's unfinished tasks, now in this one.",
    }),
  },
  { $id: 'CycleStart', additionalProperties: false },
)

const ShiftedCycles = Type.Object(
  { data: Type.Array(Cycle, { description: 'The moved cycles, by start.' }) },
  { $id: 'ShiftedCycles', additionalProperties: false },
)

const _cycleTaskList = Type.Object(
  { data: Type.Array(Task) },
  { $id: 'CycleTaskList', additionalProperties: false },
)

const cycleActions: AnyOperation[] = [
  declareOperation({
    id: 'cycles.progress',
    method: 'GET',
    path: `${cyclePath}/progress`,
    tag: 'Cycles',
    scope: 'work:read',
    summary: "A cycle's progress",
    description: 'Task counts and estimate points of the cycle by state category (archived tasks left out).',
    params: cycleParams,
    response: CycleProgress,
    status: 200,
    errors: ['not_found'],
    examples: cycleExamples.progress,
    run: (ctx, { params }) => cycleProgress(ctx, params.cycleId as CycleId),
  }),
  declareOperation({
    id: 'cycles.complete',
    method: 'POST',
    path: `${cyclePath}/complete`,
    tag: 'Cycles',
    scope: 'work:write',
    summary: 'Complete a cycle',
    description:
      "Completes the cycle now and rolls its unfinished tasks (not completed or canceled) over to the team's next " +
      "open cycle, creating it when the team's cadence is on. Cycles whose end passes are completed the same way " +
      'by the engine.',
    params: cycleParams,
    response: CycleCompletion,
    status: 200,
    capability: 'assign',
    target: cycleTarget,
    errors: ['not_found', 'cycle_completed'],
    examples: cycleExamples.complete,
    run: (ctx, { params }) => completeCycle(ctx, params.cycleId as CycleId),
  }),
  declareOperation({
    id: 'cycles.shift',
    method: 'POST',
    path: `${cyclePath}/shift`,
    tag: 'Cycles',
    scope: 'work:write',
    summary: 'Shift this and every later cycle',
    description:
      'Moves the cycle and every later cycle of the team by `days` (negative: earlier). A cycle that has ' +
      'started keeps its start and only its end moves, and may not end in the past. Refused with ' +
      '`cycle_overlap` when a moved cycle would overlap an earlier one, and with `cycle_completed` when one of ' +
      'them is completed. Each moved cycle is a `cycle.updated` event. A shift of zero days, or one that would move a cycle before another or past the calendar, is 422 `rule_violated`.',
    params: cycleParams,
    body: Type.Object(
      {
        days: Type.Integer({
          minimum: -365,
          maximum: 365,
          not: { const: 0 },
          description: 'Whole days to move by; not 0.',
        }),
      },
      { additionalProperties: false },
    ),
    response: ShiftedCycles,
    status: 200,
    capability: 'assign',
    target: cycleTarget,
    errors: ['not_found', 'cycle_overlap', 'cycle_completed', 'rule_violated'],
    examples: cycleExamples.shiftAll,
    run: async (ctx, { params, body }) => ({
      data: await shiftCycles(ctx, params.cycleId as CycleId, body.days as number),
    }),
  }),
  declareOperation({
    id: 'cycles.start',
    method: 'POST',
    path: `${cyclePath}/start`,
    tag: 'Cycles',
    scope: 'work:write',
    summary: 'Start the next cycle now',
    description:
      "Starts the team's next upcoming cycle now (its end stays). The cycle running now ends now and is " +
      'completed as `cycles.complete` would, so its unfinished tasks roll over into this one. A cycle that ' +
      'has started, or is not the next one, is a 409 `conflict`.',
    params: cycleParams,
    response: CycleStart,
    status: 200,
    capability: 'assign',
    target: cycleTarget,
    errors: ['not_found', 'conflict', 'cycle_completed'],
    examples: cycleExamples.startNow,
    run: (ctx, { params }) => startCycleNow(ctx, params.cycleId as CycleId),
  }),
]

const settingsPath = '/v1/orgs/{orgId}/teams/{teamId}/cycle-settings'
const settingsParams = Type.Object(paramsOf(settingsPath), { additionalProperties: false })

const settingsOperations: AnyOperation[] = [
  declareOperation({
    id: 'cycleSettings.get',
    method: 'GET',
    path: settingsPath,
    tag: 'Cycles',
    scope: 'work:read',
    summary: "A team's cycle cadence",
    description:
      "The team's cycle cadence: whether it is on, cycle and cooldown lengths in weeks, the weekday cycles start on and how many upcoming cycles are kept ahead. A team that never set one answers the defaults (off, 2-week cycles starting on Monday, 2 ahead) with `updatedAt` null.",
    params: settingsParams,
    response: CycleSettings,
    status: 200,
    etag: true,
    errors: ['not_found'],
    examples: cycleSettingsExamples.get,
    run: (ctx, { params }) => getCycleSettings(ctx, params.teamId as TeamId),
  }),
  declareOperation({
    id: 'cycleSettings.update',
    method: 'PATCH',
    path: settingsPath,
    tag: 'Cycles',
    scope: 'work:write',
    summary: "Change a team's cycle cadence",
    description:
      'With the cadence on, the upcoming cycles (`autoCreateCount` of them) are created at once and kept by the ' +
      'engine, and a cycle that ends rolls its unfinished tasks into the next.',
    params: settingsParams,
    body: Type.Object(
      {
        enabled: Type.Optional(Type.Boolean()),
        durationWeeks: Type.Optional(Type.Integer({ minimum: 1, maximum: 8 })),
        cooldownWeeks: Type.Optional(Type.Integer({ minimum: 0, maximum: 4 })),
        startWeekday: Type.Optional(StringEnum(WEEKDAYS)),
        autoCreateCount: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 })),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: CycleSettings,
    status: 200,
    capability: 'manage',
    target: ({ params }) => ({ type: 'team', id: params.teamId as string }),
    precondition: 'cycleSettings.get',
    errors: ['not_found', 'precondition_failed'],
    examples: cycleSettingsExamples.update,
    run: (ctx, { params, body }) => updateCycleSettings(ctx, params.teamId as TeamId, body),
  }),
]

export const cyclesCatalogue: AnyOperation[] = [...cycleResource, ...cycleActions, ...settingsOperations]

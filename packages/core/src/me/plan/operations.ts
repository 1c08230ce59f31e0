import { Type } from '@sinclair/typebox'
import { calendarDate } from '../../kernel/calendar.ts'
import { IdSchema, type PlanItemId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { MoveBody } from '../../kernel/ordering.ts'
import { Nullable } from '../../kernel/schema-types.ts'
import { planExamples } from './examples.ts'
import {
  addPlanItem,
  carryOver,
  completePlanItem,
  getPlanItem,
  listPlanDays,
  movePlanItem,
  type NewPlanItem,
  type PlanItemChange,
  removePlanItem,
  reopenPlanItem,
  updatePlanItem,
} from './plan.ts'
import {
  EstimateMinutes,
  PLAN_SUGGESTIONS_MAX,
  PlanDate,
  PlanDay,
  PlanItem,
  PlanSourceSchema,
  PlanSuggestions,
  PlanTaskRef,
  PlanText,
  TimeBlock,
} from './schemas.ts'
import { PLAN_DAY_MAX, PLAN_RANGE_DAYS } from './storage.ts'
import { planSuggestions } from './suggestions.ts'

const plan = '/v1/me/daily-plan'
const dayParams = Type.Object({ date: PlanDate }, { additionalProperties: false })
const itemParams = Type.Object({ planItemId: IdSchema('PlanItemId') }, { additionalProperties: false })
const itemPath = `${plan}/items/{planItemId}`
const itemId = (params: unknown) => (params as { planItemId: PlanItemId }).planItemId
const dateOf = (params: unknown) => calendarDate((params as { date: string }).date, '/params/date')

export const planOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.dailyPlan.list',
    method: 'GET',
    path: plan,
    tag: 'Me',
    scope: 'work:read',
    summary: 'List my plan over a range of days',
    description: `Every day from \`from\` to \`to\` (both included, at most ${PLAN_RANGE_DAYS} days: a week or month view), each with its items in order; days never planned are empty. For one day, send the same date as \`from\` and \`to\`. Items are tasks of any of the caller's workspaces and free-text items, with time blocks. A task item shows its task only while the caller may view it; otherwise it reads \`{hidden: true, reason}\` with no title, key or workspace. A task completed anywhere shows its item done (\`doneBy: system:taskCompleted\`). A bounded range, so there is no cursor. A range that ends before it starts, or spans more days, is 422 \`rule_violated\`.`,
    query: Type.Object({ from: PlanDate, to: PlanDate }, { additionalProperties: false }),
    response: Type.Object(
      {
        from: PlanDate,
        to: PlanDate,
        days: Type.Array(PlanDay, { maxItems: PLAN_RANGE_DAYS }),
      },
      { $id: 'PlanDays', additionalProperties: false },
    ),
    status: 200,
    errors: ['rule_violated'],
    examples: planExamples.list,
    run: (ctx, { query }) => {
      const { from, to } = query as { from: string; to: string }
      return listPlanDays(ctx, from, to)
    },
  }),
  declareOperation({
    id: 'me.dailyPlan.items.create',
    method: 'POST',
    path: `${plan}/{date}/items`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Add an item to my plan',
    description: `Adds a task (by workspace and \`id\` or \`key\`; the caller must be able to view it, 422 \`reference_not_found\` otherwise) or a free-text item to the day, at \`position\` (default: the end), with an optional time block and estimate. \`source\` records that the item was taken from a suggestion. A task is on a day at most once, and a day holds at most ${PLAN_DAY_MAX} items (409 \`conflict\`). An item is a \`task\` or a \`text\`, a task by \`id\` or by \`key\` and not both, and a time block ends after it starts: else 422 \`rule_violated\`.`,
    params: dayParams,
    body: Type.Object(
      {
        task: Type.Optional(PlanTaskRef),
        text: Type.Optional(PlanText),
        position: Type.Optional(
          Type.Integer({ minimum: 0, description: 'Where in the day; past the end means the end.' }),
        ),
        timeBlock: Type.Optional(Nullable(TimeBlock, 'When in the day; null for unscheduled.')),
        estimateMinutes: Type.Optional(Nullable(EstimateMinutes, 'Expected minutes; null for none.')),
        source: Type.Optional(PlanSourceSchema),
      },
      { additionalProperties: false },
    ),
    response: PlanItem,
    status: 201,
    errors: ['reference_not_found', 'conflict', 'rule_violated'],
    location: 'me.dailyPlan.items.get',
    examples: planExamples.create,
    run: (ctx, { params, body }) => addPlanItem(ctx, dateOf(params), body as NewPlanItem),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.get',
    method: 'GET',
    path: itemPath,
    tag: 'Me',
    scope: 'work:read',
    summary: 'Get a plan item',
    description:
      'One item of the caller’s plan, with an ETag for `If-Match`; hidden tasks as in `me.dailyPlan.list`.',
    params: itemParams,
    response: PlanItem,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: planExamples.get,
    run: (ctx, { params }) => getPlanItem(ctx, itemId(params)),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.update',
    method: 'PATCH',
    path: itemPath,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Change a plan item',
    description:
      'Changes the text (text items only), the time block or the estimate, or moves the item to another day (to its end; 409 `conflict` when its task is already there or the day is full). Only a text item has text, and a time block ends after it starts: else 422 `rule_violated`.',
    params: itemParams,
    body: Type.Object(
      {
        text: Type.Optional(PlanText),
        timeBlock: Type.Optional(Nullable(TimeBlock, 'When in the day; null to unschedule.')),
        estimateMinutes: Type.Optional(Nullable(EstimateMinutes, 'Expected minutes; null for none.')),
        date: Type.Optional(PlanDate),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: PlanItem,
    status: 200,
    errors: ['not_found', 'conflict', 'rule_violated'],
    precondition: 'me.dailyPlan.items.get',
    examples: planExamples.update,
    run: (ctx, { params, body }) => updatePlanItem(ctx, itemId(params), body as PlanItemChange),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.delete',
    method: 'DELETE',
    path: itemPath,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Remove a plan item',
    description: 'Takes the item off the plan; its task is untouched. The day’s later items move up.',
    params: itemParams,
    response: null,
    status: 204,
    errors: ['not_found'],
    precondition: 'me.dailyPlan.items.get',
    run: (ctx, { params }) => removePlanItem(ctx, itemId(params)),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.complete',
    method: 'POST',
    path: `${itemPath}/complete`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Mark a plan item done',
    description:
      'Marks the item done (`doneBy: me`); done again changes nothing. The task of a task item is not changed: complete it through the tasks API with its own permission check.',
    params: itemParams,
    response: PlanItem,
    status: 200,
    errors: ['not_found'],
    examples: planExamples.complete,
    run: (ctx, { params }) => completePlanItem(ctx, itemId(params)),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.reopen',
    method: 'POST',
    path: `${itemPath}/reopen`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Reopen a plan item',
    description:
      'Undoes `complete`; an open item stays open. An item done because its task was completed stays done until the task reopens (409 `conflict`).',
    params: itemParams,
    response: PlanItem,
    status: 200,
    errors: ['not_found', 'conflict'],
    examples: planExamples.reopen,
    run: (ctx, { params }) => reopenPlanItem(ctx, itemId(params)),
  }),
  declareOperation({
    id: 'me.dailyPlan.items.move',
    method: 'POST',
    path: `${itemPath}/move`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Move a plan item before or after another',
    description:
      'Puts the item just before `beforeId` or just after `afterId` (exactly one), another item of the same day ' +
      '(hidden task items too); the day is renumbered from 0. To move an item to another day, change its `date` with ' +
      '`me.dailyPlan.items.update`. A move that changes nothing changes nothing.',
    params: itemParams,
    body: MoveBody('PlanItemId', 'plan item'),
    response: PlanItem,
    status: 200,
    errors: ['not_found', 'reference_not_found'],
    examples: planExamples.move,
    run: (ctx, { params, body }) =>
      movePlanItem(ctx, itemId(params), {
        beforeId: body.beforeId as PlanItemId | undefined,
        afterId: body.afterId as PlanItemId | undefined,
      }),
  }),
  declareOperation({
    id: 'me.dailyPlan.carryOver',
    method: 'POST',
    path: `${plan}/{date}/carry-over`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Carry unfinished items over to a day',
    description:
      'Moves every open item of earlier days to the end of this day, oldest first (`carriedFrom`, `carryCount` + 1). A task already planned on the day keeps that item and the older one is dropped. Done items, items whose task was completed, and task items the caller can no longer view stay where they were. Calling it again moves nothing more: idempotent per day. `carried` counts the items moved or merged. Carry-over pauses while the caller is away: onto a day of an away period nothing moves (`awayUntil` says until when).',
    params: dayParams,
    response: Type.Object(
      {
        date: PlanDate,
        carried: Type.Integer({ minimum: 0, description: 'Items moved to the day or merged into it.' }),
        awayUntil: Nullable(
          PlanDate,
          'Set when the day is in one of the caller’s away periods (`me.away.*`): the last day of it. Nothing is carried onto an away day; the items wait for the first day back.',
        ),
        items: Type.Array(PlanItem, { description: 'The day after the carry-over, in order.' }),
      },
      { additionalProperties: false },
    ),
    status: 200,
    errors: [],
    examples: planExamples.carryOver,
    run: (ctx, { params }) => carryOver(ctx, dateOf(params)),
  }),
  declareOperation({
    id: 'me.dailyPlan.suggestions',
    method: 'GET',
    path: `${plan}/{date}/suggestions`,
    tag: 'Me',
    scope: 'work:read',
    summary: 'Suggest tasks for a day',
    description:
      'Open tasks assigned to the caller in each of their workspaces, not yet on the day, ranked overdue > due today > newly unblocked > in a cycle running on the day > due within three days; then by due date. Each workspace is read with the caller’s own read scope there, by its own queries; a workspace that fails is listed in `partial` and the rest is answered. Nothing is added to the plan: add a suggestion with `me.dailyPlan.items.create` and its `source`.',
    params: dayParams,
    query: Type.Object(
      {
        limit: Type.Optional(
          Type.Integer({
            minimum: 1,
            maximum: PLAN_SUGGESTIONS_MAX,
            default: 50,
            description: 'At most this many (default 50).',
          }),
        ),
      },
      { additionalProperties: false },
    ),
    response: PlanSuggestions,
    status: 200,
    errors: [],
    examples: planExamples.suggestions,
    run: (ctx, { params, query }) =>
      planSuggestions(ctx, dateOf(params), (query as { limit?: number }).limit ?? 50),
  }),
]

import { type TProperties, Type } from '@sinclair/typebox'
import type { AllocationId, TaskId, TimeEntryId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { Nullable, StringEnum } from '../kernel/schema-types.ts'
import { PlanTaskRef } from '../me/plan/schemas.ts'
import {
  createAllocation,
  deleteAllocation,
  listAllocations,
  requireAllocation,
  updateAllocation,
} from './allocations.ts'
import {
  createEntry,
  deleteEntry,
  listEntries,
  requireEntry,
  SUMMARY_GROUPS_MAX,
  summarizeEntries,
  updateEntry,
} from './entries.ts'
import { allocationExamples, entryExamples, timerExamples } from './examples.ts'
import {
  Allocation,
  AllocationUnitSchema,
  Amount,
  CalendarDate,
  EntryNote,
  Minutes,
  SUMMARY_GROUPS,
  TimeEntry,
  TimerStarted,
  TimerState,
  TimerStopped,
  TimeSummary,
} from './schemas.ts'
import { getTimer, startTimer, stopTimer } from './timer.ts'

const TIME = 'Time tracking'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const eid = (p: Record<string, string>) => p.entryId as TimeEntryId
const aid = (p: Record<string, string>) => p.allocationId as AllocationId
const Note = Nullable(EntryNote, 'Null for none.')

const entryFilters = {
  memberId: Type.Optional(IdSchema('MemberId', 'Only the time this person logged.')),
  taskId: Type.Optional(IdSchema('TaskId')),
  projectId: Type.Optional(IdSchema('ProjectId', "Only time on the project's tasks.")),
  from: Type.Optional(CalendarDate('First day worked, inclusive.')),
  to: Type.Optional(CalendarDate('Last day worked, inclusive.')),
}

const entriesPath = '/v1/orgs/{orgId}/time-entries'
const visibility =
  'Only entries on tasks the caller can view: the permission predicate is part of the query, so pages and totals are exact.'
const entries = resourceOperations({
  name: 'time entry',
  plural: 'timeEntries',
  summaries: { list: 'List time entries' },
  tag: TIME,
  schema: TimeEntry,
  collectionPath: entriesPath,
  idParam: 'entryId',
  idBrand: 'TimeEntryId',
  target: (p) => ({ type: 'time_entry', id: p.entryId! }),
  capabilities: { update: 'contribute', delete: 'contribute' },
  requires: {
    update: "`contribute` on the task for your own entry, `manage` on it for someone else's",
    delete: "`contribute` on the task for your own entry, `manage` on it for someone else's",
  },
  updateBody: Type.Object(
    {
      minutes: Type.Optional(Minutes),
      date: Type.Optional(CalendarDate('The day worked; not in the future.')),
      note: Type.Optional(Note),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: entryFilters,
  errors: { list: ['rule_violated'], update: ['rule_violated'] },
  descriptions: {
    list: `Logged time, newest day first. ${visibility} A \`from\` after \`to\` is 422 \`rule_violated\`.`,
    get: 'An entry on a task the caller cannot view is a 404, like a missing one.',
    update:
      "One's own entry (with `contribute` on the task), or anyone's with `manage` on the task. The project and task do not change: delete the entry and log it again. A `date` in the future is 422 `rule_violated`.",
    delete: "One's own entry (with `contribute` on the task), or anyone's with `manage` on the task.",
  },
  examples: { list: entryExamples.list, get: entryExamples.get, update: entryExamples.update },
  handlers: {
    list: (ctx, _p, query) => listEntries(ctx, query as never),
    get: (ctx, p) => requireEntry(ctx, eid(p)),
    update: (ctx, p, body) => updateEntry(ctx, eid(p), body as never),
    delete: (ctx, p) => deleteEntry(ctx, eid(p)),
  },
})

const tasksEntriesPath = '/v1/orgs/{orgId}/tasks/{taskId}/time-entries'
const entryActions: AnyOperation[] = [
  declareOperation({
    id: 'timeEntries.summary',
    method: 'GET',
    path: `${entriesPath}/summary`,
    tag: TIME,
    scope: 'work:read',
    summary: 'Summarize logged time',
    description: `Total minutes grouped by \`project\` (null: tasks without one), \`person\`, \`task\` or ISO \`week\`, summed in the database over the entries the filters select. ${visibility} At most ${SUMMARY_GROUPS_MAX} groups, largest first (weeks in calendar order); the totals count every group. A \`from\` after \`to\` is 422 \`rule_violated\`.`,
    params: obj(paramsOf(entriesPath)),
    query: Type.Object(
      {
        groupBy: Type.Optional(
          StringEnum(SUMMARY_GROUPS, { description: 'What to total by; default `project`.' }),
        ),
        ...entryFilters,
      },
      { additionalProperties: false },
    ),
    response: TimeSummary,
    status: 200,
    errors: ['rule_violated'],
    examples: entryExamples.summary,
    run: (ctx, { query }) =>
      summarizeEntries(ctx, {
        ...(query as object),
        groupBy: (query as { groupBy?: string }).groupBy ?? 'project',
      } as never),
  }),
  declareOperation({
    id: 'tasks.timeEntries.create',
    method: 'POST',
    path: tasksEntriesPath,
    tag: TIME,
    scope: 'work:write',
    summary: 'Log time on a task',
    description:
      'Logs minutes the caller worked on the task on `date` (default today, UTC; not after tomorrow, else 422 `rule_violated`). People only; needs `contribute` on the task.',
    params: obj(paramsOf(tasksEntriesPath)),
    body: Type.Object(
      {
        minutes: Minutes,
        date: Type.Optional(CalendarDate('The day worked; default today (UTC).')),
        note: Type.Optional(Note),
      },
      { additionalProperties: false },
    ),
    response: TimeEntry,
    status: 201,
    capability: 'contribute',
    target: ({ params }) => ({ type: 'task', id: params.taskId }),
    errors: ['not_found', 'rule_violated'],
    location: 'timeEntries.get',
    examples: entryExamples.create,
    run: (ctx, { params, body }) => createEntry(ctx, params.taskId as TaskId, body as never),
  }),
]

const timer = '/v1/me/timer'
const timerOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.timer.get',
    method: 'GET',
    path: timer,
    tag: TIME,
    scope: 'work:read',
    summary: 'Get my timer',
    description: "The caller's running timer, in whichever workspace it is; `timer: null` when none runs.",
    response: TimerState,
    status: 200,
    errors: [],
    examples: timerExamples.get,
    run: (ctx) => getTimer(ctx),
  }),
  declareOperation({
    id: 'me.timer.start',
    method: 'POST',
    path: timer,
    tag: TIME,
    scope: 'work:write',
    summary: 'Start timing a task',
    requires: '`contribute` on the task named by `task`, in its workspace',
    description:
      'Starts the caller’s timer on a task of any of their workspaces (by `id` or by `key`, not both: else 422 `rule_violated`), on which they must be able to log time (`contribute`). A person has one timer across workspaces: a running one is stopped first, as `me.timer.stop` would, and its entry is returned as `stopped`. Emits `timer.started` in the task’s workspace, readable by the person only.',
    body: Type.Object({ task: PlanTaskRef, note: Type.Optional(Note) }, { additionalProperties: false }),
    response: TimerStarted,
    status: 200,
    errors: ['reference_not_found', 'archived', 'capability_required', 'rule_violated'],
    examples: timerExamples.start,
    run: (ctx, { body }) => startTimer(ctx, body as never),
  }),
  declareOperation({
    id: 'me.timer.stop',
    method: 'POST',
    path: `${timer}/stop`,
    tag: TIME,
    scope: 'work:write',
    summary: 'Stop my timer',
    description:
      'Writes a `timer` time entry in the task’s workspace: the whole minutes since the start (at most a day), dated the day it started where the person lives (their profile time zone, else UTC), with `note` if sent (else the timer’s). Nothing is written, and `discarded` says why, when it ran under a minute or the person can no longer log time on the task or has left its workspace. 409 `conflict` when no timer runs.',
    body: Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false }),
    response: TimerStopped,
    status: 200,
    errors: ['conflict'],
    examples: timerExamples.stop,
    run: (ctx, { body }) => stopTimer(ctx, (body ?? {}) as never),
  }),
]

const allocations = resourceOperations({
  name: 'allocation',
  plural: 'allocations',
  tag: 'Allocations',
  schema: Allocation,
  collectionPath: '/v1/orgs/{orgId}/allocations',
  idParam: 'allocationId',
  idBrand: 'AllocationId',
  target: (p) => ({ type: 'allocation', id: p.allocationId! }),
  createTarget: (_p, body) => ({ type: 'project', id: body.projectId as string }),
  requires: { create: '`assign` on the project named by `projectId`' },
  capabilities: { create: 'assign', update: 'assign', delete: 'assign' },
  createBody: Type.Object(
    {
      projectId: IdSchema('ProjectId'),
      memberId: IdSchema('MemberId', 'An active member of the workspace.'),
      startDate: CalendarDate('First day, inclusive.'),
      endDate: CalendarDate('Last day, inclusive.'),
      unit: AllocationUnitSchema,
      amount: Amount,
      note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }), 'Null for none.')),
    },
    { additionalProperties: false },
  ),
  updateBody: Type.Object(
    {
      startDate: Type.Optional(CalendarDate('First day, inclusive.')),
      endDate: Type.Optional(CalendarDate('Last day, inclusive.')),
      unit: Type.Optional(AllocationUnitSchema),
      amount: Type.Optional(Amount),
      note: Type.Optional(Nullable(Type.String({ maxLength: 1000 }), 'Null for none.')),
    },
    { additionalProperties: false, minProperties: 1 },
  ),
  listQuery: {
    projectId: Type.Optional(IdSchema('ProjectId')),
    memberId: Type.Optional(IdSchema('MemberId')),
    from: Type.Optional(CalendarDate('Only allocations that end on or after this day.')),
    to: Type.Optional(CalendarDate('Only allocations that start on or before this day.')),
  },
  errors: { create: ['not_found', 'reference_not_found', 'rule_violated'], update: ['rule_violated'] },
  descriptions: {
    list: 'Allocations on the projects the caller can view, by start date. The permission predicate is part of the query.',
    get: 'An allocation on a project the caller cannot view is a 404, like a missing one.',
    create:
      'Plans a person’s effort on a project from `startDate` to `endDate` (not before it), as a `percent` of their time (1 to 100) or `hoursPerWeek` (else 422 `rule_violated`). Needs `assign` on the project. Overlapping allocations are allowed; `personTotal` shows the person’s total over them.',
    update:
      'Needs `assign` on the project. The project and person do not change. `endDate` not before `startDate`, and a `percent` of 1 to 100 (else 422 `rule_violated`).',
    delete: 'Needs `assign` on the project.',
  },
  examples: allocationExamples,
  handlers: {
    list: (ctx, _p, query) => listAllocations(ctx, query as never),
    get: (ctx, p) => requireAllocation(ctx, aid(p)),
    create: (ctx, _p, body) => createAllocation(ctx, body as never),
    update: (ctx, p, body) => updateAllocation(ctx, aid(p), body as never),
    delete: (ctx, p) => deleteAllocation(ctx, aid(p)),
  },
})

/** Time tracking and allocations: docs/time-tracking.md. */
export const timeOperations: AnyOperation[] = [...entryActions, ...entries, ...timerOperations]
export const allocationOperations: AnyOperation[] = allocations

import { Type } from '@sinclair/typebox'
import { FieldValuesInput } from '../fields/schemas.ts'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import type { TaskId, TeamId } from '../kernel/ids.ts'
import { IdSchema } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { paramsOf, resourceOperations } from '../kernel/resource.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { STATE_CATEGORIES } from '../teams/schemas.ts'
import { createTask, prefetchIntake } from './create.ts'
import { type DuplicateOptions, duplicateTask, MAX_DUPLICATED } from './duplicate.ts'
import { duplicateExample, taskExamples } from './examples.ts'
import { TaskFieldQuery } from './fields/query.ts'
import type { TaskIntake } from './intake-storage.ts'
import { taskQueryOperation } from './query.ts'
import { requireTask } from './require-task.ts'
import { PrioritySchema, Task } from './schemas.ts'
import { TASK_SORTS, TaskSearchQuery } from './search/query.ts'
import { deleteTask, listTasks, setTaskArchived, updateTask } from './service.ts'

// The bodies take the task's own field schemas (kernel/body-fields.ts): a client types what it
// sends and what it reads alike; the descriptions say what each field does in the request.
const editable = {
  ...optionalFieldsOf(Task, {
    description: true,
    assigneeId: 'Needs the `assign` capability.',
    priority: true,
    estimate: true,
    dueDate: true,
    startDate: true,
    parentId:
      'Makes this a subtask of a task of any team of the org; null makes it top-level. At most five levels; never its own ancestor.',
    cycleId: "An open cycle of the task's team; null takes the task out of its cycle.",
    projectId:
      'A project the caller may view, not archived; null takes the task out of its project (and milestone).',
    milestoneId:
      "A milestone of the task's project; given without `projectId`, it also sets the project. Null clears it.",
    labelIds: {
      maxItems: 50,
      uniqueItems: true,
      description:
        "The task's labels: on update the whole set, replacing the current one. Each is an active label of the org or of the task's team, at most one of a group (409 `label_group_conflict`).",
    },
  }),
  fields: Type.Optional(FieldValuesInput),
}

/** The body of `tasks.create`, also an item of `tasks.batchCreate`. */
export const TaskCreateBody = Type.Object(
  {
    ...fieldsOf(Task, { teamId: 'The team the task belongs to.', title: true }),
    ...optionalFieldsOf(Task, {
      stateId: "A workflow state of the task's team; the team's default state if left out.",
    }),
    ...editable,
  },
  { $id: 'TaskCreate', additionalProperties: false },
)
/** The fields `tasks.update` and `tasks.batchUpdate` change. */
export const TaskUpdateFields = {
  ...optionalFieldsOf(Task, {
    title: true,
    teamId:
      'Moves the task to another team (needs `contribute` there too): it gets a new key, its old key keeps resolving, and its state maps to the same category.',
    stateId:
      "A workflow state of the task's team (of the new team when `teamId` changes too); completing or canceling stamps `completedAt` / `canceledAt`.",
  }),
  ...editable,
}
const TaskUpdateBody = Type.Object(TaskUpdateFields, {
  $id: 'TaskUpdate',
  additionalProperties: false,
  minProperties: 1,
})

const derived = resourceOperations({
  name: 'task',
  plural: 'tasks',
  tag: 'Tasks',
  schema: Task,
  collectionPath: '/v1/orgs/{orgId}/tasks',
  idParam: 'taskId',
  idBrand: 'TaskId',
  target: (p) => ({ type: 'task', id: p.taskId! }),
  // The team is named in the body: a missing or hidden one is a 422 at `/body/teamId`, not a 404.
  createTarget: (_p, body) => ({ type: 'team', id: body.teamId, pointer: '/body/teamId' }),
  requires: { create: '`contribute` on the team named by `teamId`' },
  capabilities: {
    create: 'contribute',
    update: 'contribute',
    archive: 'contribute',
    restore: 'contribute',
    delete: 'manage',
  },
  createBody: TaskCreateBody,
  updateBody: TaskUpdateBody,
  listQuery: {
    teamId: Type.Optional(IdSchema('TeamId')),
    stateId: Type.Optional(IdSchema('StateId')),
    stateCategory: Type.Optional(
      Type.String({
        pattern: `^(${STATE_CATEGORIES.join('|')})(,(${STATE_CATEGORIES.join('|')}))*$`,
        description: 'One or more categories, comma-separated: `started,completed`.',
      }),
    ),
    assigneeId: Type.Optional(
      Type.String({
        pattern: '^(none|mem_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A MemberId, or `none` for unassigned tasks.',
      }),
    ),
    priority: Type.Optional(PrioritySchema),
    cycleId: Type.Optional(
      Type.String({
        pattern: '^(none|cyc_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A CycleId, or `none` for tasks in no cycle.',
      }),
    ),
    projectId: Type.Optional(
      Type.String({
        pattern: '^(none|proj_[0-9A-HJKMNP-TV-Z]{26})$',
        description: 'A ProjectId, or `none` for tasks in no project.',
      }),
    ),
    milestoneId: Type.Optional(
      Type.String({
        pattern: '^(none|mile_[0-9A-HJKMNP-TV-Z]{26})$',
        description:
          'A MilestoneId, or `none` for tasks in no milestone: `?milestoneId=mile_…` lists a milestone’s tasks.',
        examples: ['mile_01JD3Q2R4S5T6V7W8X9YZABCDE'],
      }),
    ),
    updatedSince: Type.Optional(
      Type.String({ format: 'date-time', description: 'Only tasks changed at or after this time.' }),
    ),
    archived: Type.Optional(
      StringEnum(['exclude', 'only', 'include'] as const, {
        default: 'exclude',
      }),
    ),
    sort: Type.Optional(
      StringEnum(TASK_SORTS, {
        default: '-createdAt',
        description:
          'Sort key; a leading `-` sorts descending. Newest first by default. `priority` puts urgent first and ' +
          '`none` last; `dueDate` puts undated tasks last in both directions. Ties go by id.',
      }),
    ),
    ...TaskSearchQuery,
    ...TaskFieldQuery,
  },
  errors: {
    list: ['reference_not_found', 'archived', 'rule_violated'],
    create: [
      'reference_not_found',
      'archived',
      'subtask_depth',
      'cycle_completed',
      'label_group_conflict',
      'field_not_applicable',
      'rule_violated',
    ],
    update: [
      'reference_not_found',
      'archived',
      'subtask_cycle',
      'subtask_depth',
      'cycle_completed',
      'label_group_conflict',
      'field_not_applicable',
      'rule_violated',
    ],
  },
  descriptions: {
    list:
      'The tasks of the workspace the caller can view, newest first by default: the permission check is part of the query, so pages are exact. ' +
      'Filters combine with AND: `teamId`, `stateId`, `stateCategory` (several, comma-separated), `assigneeId` (`none`: unassigned), `priority`, ' +
      '`cycleId`, `projectId` and `milestoneId` (`none`: in none), `labelId`, `parentId` (`none`: top-level), `blocked`, date ranges on `dueDate`, `createdAt` and ' +
      '`updatedAt`, a custom field value (`fieldId` with `fieldValue`), and full-text `q` over title and description. Archived tasks are left out ' +
      'unless `archived` says otherwise. `sort` orders by creation, update, priority or due date (`fieldSort` by a custom field), ties by id. ' +
      'Pages: `limit` (default 50, at most 200) and `cursor` from `nextCursor`, sent back with the same filters and sort (else 400 `invalid_cursor`). ' +
      'Rules across parameters answer 422 `rule_violated`: `fieldValue` needs `fieldId`, `fieldSort` excludes `sort`, and `q` holds at most 8 words.',
    get: 'One task the caller can view, with its key (`ENG-42`), state, labels, custom field values and lifecycle stamps. A task the caller cannot view is a 404, as one that does not exist; `tasks.getByKey` reads it by key.',
    create:
      "Creates a task in a team (`teamId`, needed with `title`) and answers it with its key, the team's next number (`ENG-43`). " +
      "Left out, `stateId` is the team's default state, or its triage state when the team takes requests into triage and the caller holds less than `assign` on it; " +
      '`priority` is `none`; every other field is empty. An `assigneeId` must be an active member, and setting one needs `assign` on the team. ' +
      'Refused: an archived team or parent (409 `archived`); a team or parent that does not exist or that the caller cannot view, a state, cycle, project, milestone, label or assignee that is not a valid choice for the team (422 `reference_not_found`, pointing at the field); ' +
      'a completed cycle (409 `cycle_completed`), a sixth level of subtasks (409 `subtask_depth`), two labels of one group (409 `label_group_conflict`); ' +
      "a `startDate` after the `dueDate`, an `estimate` off the team's estimate scale, or a custom field value its field does not take (422 `rule_violated`). " +
      'The creator and the assignee are subscribed; the assignee, people @mentioned in the description and, for a triage item, the triage handlers (as the triage settings of the team say) are notified. Emits `task.created`.',
    update:
      'Changes any of the fields sent, and only those: `labelIds` replaces the whole set, `fields` sets (or with null clears) custom field values. ' +
      'Changing `assigneeId` needs `assign` on the task; moving it to another team (`teamId`) needs `contribute` there, gives it a new key (the old one keeps resolving) ' +
      'and a state of the same category. A state of category `completed` or `canceled` stamps `completedAt` or `canceledAt`. ' +
      'Refused as on create, plus 409 `subtask_cycle` for a parent that is one of its own subtasks. Records each change in the task history; ' +
      'a new assignee and @mentions are notified, subscribers of a state change. Sending what the task already holds changes nothing and emits nothing; otherwise emits `task.updated` with the changes. The rules of create apply (422 `rule_violated`).',
    restore:
      'Brings an archived task back into lists; restoring a task that is not archived changes nothing. Its subtasks archived with it stay archived. Emits `task.restored`.',
    delete:
      'Deletes the task for good: it cannot be restored (archive it to keep it). Its dependencies and relations go with it, and its subtasks become top-level tasks. Emits `task.deleted` with its id and key.',
  },
  examples: taskExamples,
  handlers: {
    list: (ctx, _p, query) => listTasks(ctx, query),
    get: (ctx, p) => requireTask(ctx, p.taskId as TaskId),
    create: (ctx, _p, body) => createTask(ctx, { ...body, teamId: body.teamId as TeamId }),
    update: (ctx, p, body) => updateTask(ctx, p.taskId as TaskId, body),
    restore: (ctx, p) => setTaskArchived(ctx, p.taskId as TaskId, false),
    delete: (ctx, p) => deleteTask(ctx, p.taskId as TaskId),
  },
})

// Archive is declared by hand: it takes the policy for open subtasks (docs/tasks.md).
const archive = declareOperation({
  id: 'tasks.archive',
  method: 'POST',
  path: '/v1/orgs/{orgId}/tasks/{taskId}/archive',
  tag: 'Tasks',
  scope: 'work:write',
  summary: 'Archive a task',
  description:
    'A task with open (unarchived) subtasks needs `children`: `archive` archives the whole open subtree with it, `detach` makes its direct subtasks top-level tasks. Without it such a task answers 409 `has_children`.',
  params: Type.Object(paramsOf('/v1/orgs/{orgId}/tasks/{taskId}'), { additionalProperties: false }),
  query: Type.Object(
    { children: Type.Optional(StringEnum(['archive', 'detach'] as const)) },
    { additionalProperties: false },
  ),
  response: Task,
  status: 200,
  capability: 'contribute',
  target: ({ params }) => ({ type: 'task', id: params.taskId }),
  errors: ['not_found', 'precondition_failed', 'has_children'],
  precondition: 'tasks.get',
  examples: taskExamples.archive,
  run: (ctx, { params, query }) => setTaskArchived(ctx, params.taskId as TaskId, true, query.children),
})

const duplicateOperation = declareOperation({
  id: 'tasks.duplicate',
  method: 'POST',
  path: '/v1/orgs/{orgId}/tasks/{taskId}/duplicate',
  tag: 'Tasks',
  scope: 'work:write',
  summary: 'Duplicate a task',
  description:
    'Creates a task in the same team and state with the same fields and parent, and its labels unless `labels` is false. ' +
    `\`subtasks: true\` copies its open subtasks too, with theirs (at most ${MAX_DUPLICATED} tasks in all, else 409 \`conflict\`). ` +
    'Copying an assignee needs `assign`. A copy is held to the rules of `tasks.create` (an estimate off the team’s current scale: 422 `rule_violated`).',
  params: Type.Object(
    { orgId: IdSchema('OrgId'), taskId: IdSchema('TaskId') },
    { additionalProperties: false },
  ),
  body: Type.Object(
    {
      ...optionalFieldsOf(Task, { title: "The copy's title; the original's if left out." }),
      labels: Type.Optional(Type.Boolean({ default: true, description: 'Copy the labels.' })),
      subtasks: Type.Optional(Type.Boolean({ default: false, description: 'Copy the open subtasks.' })),
    },
    { additionalProperties: false },
  ),
  response: Task,
  status: 201,
  capability: 'contribute',
  target: ({ params }) => ({ type: 'task', id: params.taskId as string }),
  errors: ['not_found', 'archived', 'reference_not_found', 'conflict', 'rule_violated'],
  location: 'tasks.get',
  examples: duplicateExample,
  run: (ctx, { params, body }) => duplicateTask(ctx, params.taskId as TaskId, body as DuplicateOptions),
})

/**
 * `tasks.create` reads everything it checks before the capability check on the team, which takes
 * the team's containers from that read instead of reading the team again (issue 31).
 */
const create = (op: AnyOperation): AnyOperation => ({
  ...op,
  prefetch: (ctx, { body }) => prefetchIntake(ctx, body as TaskCreateInput),
  run: (ctx, { body, prefetched }) =>
    createTask(ctx, body as TaskCreateInput, prefetched as TaskIntake | undefined),
})

type TaskCreateInput = Parameters<typeof createTask>[1]

export const tasksCatalogue: AnyOperation[] = [
  ...derived.flatMap((op) =>
    op.id === 'tasks.update'
      ? [op, archive]
      : op.id === 'tasks.list'
        ? [op, taskQueryOperation(op)]
        : op.id === 'tasks.create'
          ? [create(op)]
          : [op],
  ),
  duplicateOperation,
]

import { Type } from '@sinclair/typebox'
import type { OrgId, Task } from '@workgraph/core'
import { PlanStep, ProblemError } from '@workgraph/core'
import { CycleRef } from '../cycles/cycles.ts'
import { TASK_FIELDS, taskRows } from '../rows.ts'
import {
  Cursor,
  fieldOf,
  Limit,
  object,
  optionalFieldsOf,
  PersonOrNone,
  StateRef,
  TaskRef,
  TeamRef,
  Workspace,
} from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'
import { taskDetail } from './detail.ts'
import { TaskDetail, TaskPage, TaskRow } from './outputs.ts'

const Fields = Type.Optional(
  Type.Array(Type.String({ enum: [...TASK_FIELDS] }), {
    uniqueItems: true,
    description: 'More task fields for each row.',
  }),
)
/** `tasks.list` query fields the tool passes through as they are. */
const SEARCH_FILTERS = [
  'q',
  'stateCategory',
  'priority',
  'blocked',
  'dueAfter',
  'dueBefore',
  'createdAfter',
  'createdBefore',
  'updatedSince',
  'updatedBefore',
  'archived',
  'sort',
]
const EDITABLE = ['title', 'description', 'priority', 'estimate', 'dueDate']
const ParentRef = PlanStep.properties.parent
/** A type list, not an `anyOf` (some hosts reject it), like the plan step's nullable fields. */
const CycleOrNone = Type.Unsafe<string | null>({
  ...CycleRef,
  type: ['string', 'null'],
  description: `${CycleRef.description} null takes the task out of its cycle.`,
})

/** Resolves the task argument and reads the task (404 when the caller cannot view it). */
async function taskOf(call: ToolCall, orgId: OrgId, ref: string): Promise<Task> {
  const taskId = await call.resolve(orgId, 'task', ref)
  return call.run('tasks.get', { params: { orgId, taskId } })
}

/** `state` and `assignee` arguments as the ids the operation takes. */
async function references(
  call: ToolCall,
  orgId: OrgId,
  team: string,
  args: {
    state?: string
    assignee?: string | null
    parent?: string | null
    cycle?: string | null
    labels?: string[]
  },
) {
  const labelIds = args.labels
    ? await Promise.all(args.labels.map((name) => call.resolve(orgId, 'label', name, team)))
    : undefined
  return {
    ...(labelIds ? { labelIds } : {}),
    ...(args.parent === null ? { parentId: null } : {}),
    ...(typeof args.parent === 'string' ? { parentId: await call.resolve(orgId, 'task', args.parent) } : {}),
    ...(args.cycle === null ? { cycleId: null } : {}),
    ...(typeof args.cycle === 'string'
      ? { cycleId: await call.resolve(orgId, 'cycle', args.cycle, team) }
      : {}),
    ...(args.state !== undefined ? { stateId: await call.resolve(orgId, 'state', args.state, team) } : {}),
    ...(args.assignee === null ? { assigneeId: null } : {}),
    ...(typeof args.assignee === 'string'
      ? { assigneeId: await call.resolve(orgId, 'person', args.assignee) }
      : {}),
  }
}

const LabelNames = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 50,
  uniqueItems: true,
  description:
    "Label names (the workspace's and the task's team's); on update the whole set, [] removes all.",
})

const pick = (args: Record<string, unknown>, fields: string[]) =>
  Object.fromEntries(fields.filter((f) => args[f] !== undefined).map((f) => [f, args[f]]))

async function updateTask(call: ToolCall, args: any, changes: (orgId: OrgId, task: Task) => Promise<object>) {
  const org = await call.workspace(args.workspace)
  const task = await taskOf(call, org.id, args.task)
  const body = await changes(org.id, task)
  const updated: Task = await call.run('tasks.update', { params: { orgId: org.id, taskId: task.id }, body })
  return (await taskRows(call, org.id, [updated]))[0]
}

export const taskTools: ToolDefinition[] = [
  {
    name: 'search_tasks',
    title: 'Search tasks',
    description:
      'Tasks as compact rows, filtered by team, state, assignee (`none`), label, cycle, parent (`none`: top-level), words in `q`, dates, `blocked`, and `filter` (or/not/comparisons).',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['tasks.list', 'tasks.query', 'names.resolve'],
    input: object({
      workspace: Workspace,
      team: Type.Optional(TeamRef),
      state: Type.Optional(Type.String({ ...StateRef, description: 'A state name; needs `team`.' })),
      assignee: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 320,
          description: 'A person (email, name, `me`), or `none` for unassigned.',
        }),
      ),
      label: Type.Optional(
        Type.String({ minLength: 1, maxLength: 200, description: 'Tasks carrying this label (by name).' }),
      ),
      cycle: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 120,
          description: `${CycleRef.description} Needs \`team\`. \`none\`: tasks in no cycle.`,
        }),
      ),
      parent: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 60,
          description: 'Subtasks of this task (key), or `none` for top-level tasks.',
        }),
      ),
      ...optionalFieldsOf('tasks.list', 'query', SEARCH_FILTERS, {
        q: 'Words that begin words of the title or description.',
        sort: '`-` sorts descending.',
        stateCategory: 'Comma-separated categories.',
        dueAfter: '',
        dueBefore: '',
        createdAfter: '',
        createdBefore: '',
        updatedSince: '',
        updatedBefore: '',
      }),
      filter: Type.Optional(
        Type.Object(
          {},
          {
            additionalProperties: true,
            description:
              'A `tasks.query` filter, ids not names (docs/filters.md), ANDed with the rest: ' +
              '{"or":[{"priority":{"eq":"urgent"}},{"dueDate":{"lte":"P7D"}}],"not":{"stateCategory":{"eq":"completed"}}}.',
          },
        ),
      ),
      fields: Fields,
      cursor: Cursor,
      limit: Limit,
    }),
    output: TaskPage,
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const query: Record<string, unknown> = {
        ...pick(args, [...SEARCH_FILTERS, 'cursor']),
        limit: args.limit ?? 25,
      }
      if (args.label) query.labelId = await call.resolve(org.id, 'label', args.label, args.team)
      if (args.parent)
        query.parentId = args.parent === 'none' ? 'none' : await call.resolve(org.id, 'task', args.parent)
      if (args.cycle) {
        if (!args.team && args.cycle !== 'none')
          throw new ProblemError('validation_failed', '`cycle` needs `team`: cycles are numbered per team.')
        query.cycleId =
          args.cycle === 'none' ? 'none' : await call.resolve(org.id, 'cycle', args.cycle, args.team)
      }
      if (args.team) query.teamId = await call.resolve(org.id, 'team', args.team)
      if (args.state) {
        if (!args.team)
          throw new ProblemError('validation_failed', '`state` needs `team`: states are named per team.')
        query.stateId = await call.resolve(org.id, 'state', args.state, args.team)
      }
      if (args.assignee)
        query.assigneeId =
          args.assignee === 'none' ? 'none' : await call.resolve(org.id, 'person', args.assignee)
      // A composed filter goes to `tasks.query`, whose body is this same query plus `filter`.
      const page = args.filter
        ? await call.run('tasks.query', {
            params: { orgId: org.id },
            body: { ...query, filter: args.filter },
          })
        : await call.run('tasks.list', { params: { orgId: org.id }, query })
      return { tasks: await taskRows(call, org.id, page.data, args.fields), nextCursor: page.nextCursor }
    },
  },
  {
    name: 'get_task',
    title: 'Get a task',
    description:
      'One task: fields, project, milestone, cycle, labels, parent and subtasks, blockers and blocked tasks, relations, comment threads (capped; `more` says what has more).',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: [
      'tasks.get',
      'names.resolve',
      'labels.get',
      'projects.get',
      'milestones.get',
      'cycles.get',
      'tasks.children.list',
      'tasks.blockers.list',
      'tasks.blocking.list',
      'tasks.relations.list',
      'tasks.comments.list',
    ],
    input: object({ workspace: Workspace, task: TaskRef }, ['task']),
    output: TaskDetail,
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const task = await taskOf(call, org.id, args.task)
      return taskDetail(call, org.id, task, TASK_FIELDS)
    },
  },
  {
    name: 'create_task',
    title: 'Create a task',
    description: 'Creates a task in a team (a subtask with `parent`); answers it with its key.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['tasks.create', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        team: TeamRef,
        title: fieldOf('tasks.create', 'body', 'title'),
        ...optionalFieldsOf('tasks.create', 'body', ['description', 'priority', 'estimate', 'dueDate']),
        state: Type.Optional(StateRef),
        assignee: Type.Optional(PersonOrNone),
        parent: Type.Optional(ParentRef),
        cycle: Type.Optional(CycleOrNone),
        labels: Type.Optional(LabelNames),
      },
      ['team', 'title'],
    ),
    output: TaskRow,
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const teamId = await call.resolve(org.id, 'team', args.team)
      const body = { teamId, ...pick(args, EDITABLE), ...(await references(call, org.id, args.team, args)) }
      const task: Task = await call.run('tasks.create', { params: { orgId: org.id }, body })
      return (await taskRows(call, org.id, [task], ['id']))[0]
    },
  },
  {
    name: 'update_task',
    title: 'Update a task',
    description: "Changes a task's fields; `labels` is the whole set, null clears parent, cycle or assignee.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['tasks.update', 'tasks.get', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        ...optionalFieldsOf('tasks.update', 'body', EDITABLE),
        state: Type.Optional(StateRef),
        assignee: Type.Optional(PersonOrNone),
        parent: Type.Optional(ParentRef),
        cycle: Type.Optional(CycleOrNone),
        labels: Type.Optional(LabelNames),
      },
      ['task'],
    ),
    run: (call, args) =>
      updateTask(call, args, async (orgId, task) => ({
        ...pick(args, EDITABLE),
        ...(await references(call, orgId, task.teamId, args)),
      })),
  },
  {
    name: 'move_task',
    title: 'Move a task to a state, or above or below another',
    description:
      'Moves a task to another state of its team, and/or just above (`before`) or below (`after`) another task of its board column (`list`: or of its project or cycle).',
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['tasks.update', 'tasks.move', 'tasks.get', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        state: Type.Optional(StateRef),
        before: Type.Optional(Type.String({ ...TaskRef, description: 'Put it just above this task.' })),
        after: Type.Optional(Type.String({ ...TaskRef, description: 'Put it just below this task.' })),
        list: Type.Optional(Type.String({ enum: ['board', 'project', 'cycle'], default: 'board' })),
      },
      ['task'],
    ),
    async run(call, args) {
      if (!args.state && !args.before && !args.after)
        throw new ProblemError('validation_failed', 'Name a `state`, or a task to go `before` or `after`.')
      if (args.before && args.after)
        throw new ProblemError('validation_failed', 'Name one of `before` or `after`, not both.')
      const org = await call.workspace(args.workspace)
      let task = await taskOf(call, org.id, args.task)
      const params = { orgId: org.id, taskId: task.id }
      if (args.state) {
        const body = await references(call, org.id, task.teamId, { state: args.state })
        task = await call.run('tasks.update', { params, body })
      }
      const anchor = args.before ?? args.after
      if (anchor) {
        const side = args.before ? 'beforeId' : 'afterId'
        const body = { list: args.list ?? 'board', [side]: await call.resolve(org.id, 'task', anchor) }
        task = await call.run('tasks.move', { params, body })
      }
      return (await taskRows(call, org.id, [task]))[0]
    },
  },
  {
    name: 'assign_task',
    title: 'Assign a task',
    description: 'Assigns a task, or unassigns it with `assignee: null`.',
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['tasks.update', 'tasks.get', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef, assignee: PersonOrNone }, ['task', 'assignee']),
    run: (call, args) =>
      updateTask(call, args, (orgId, task) =>
        references(call, orgId, task.teamId, { assignee: args.assignee }),
      ),
  },
  {
    name: 'archive_task',
    title: 'Archive a task',
    description: 'Archives a task (`organize` `restore_task` brings it back).',
    readOnly: false,
    destructive: true,
    idempotent: true,
    operations: ['tasks.archive', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef }, ['task']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const task: Task = await call.run('tasks.archive', { params: { orgId: org.id, taskId } })
      return (await taskRows(call, org.id, [task], ['archivedAt']))[0]
    },
  },
]

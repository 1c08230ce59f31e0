import { Type } from '@sinclair/typebox'
import type { OrgId, Task } from '@workgraph/core'
import { ProblemError } from '@workgraph/core'
import { TASK_FIELDS, taskRows } from './rows.ts'
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
} from './schema.ts'
import type { ToolCall, ToolDefinition } from './types.ts'

const Fields = Type.Optional(
  Type.Array(Type.String({ enum: [...TASK_FIELDS] }), {
    uniqueItems: true,
    description: 'Task fields to add to the compact rows (key, title, state, assignee, priority).',
  }),
)
const EDITABLE = ['title', 'description', 'priority', 'estimate', 'dueDate']

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
  args: { state?: string; assignee?: string | null },
) {
  return {
    ...(args.state !== undefined ? { stateId: await call.resolve(orgId, 'state', args.state, team) } : {}),
    ...(args.assignee === null ? { assigneeId: null } : {}),
    ...(typeof args.assignee === 'string'
      ? { assigneeId: await call.resolve(orgId, 'person', args.assignee) }
      : {}),
  }
}

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
      'Lists tasks matching filters given by name (team key, state name, person email/name/`me`), newest first, as compact rows. Pages: pass `nextCursor` back as `cursor`; `nextCursor: null` means there is no more.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['tasks.list', 'names.resolve'],
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
      ...optionalFieldsOf('tasks.list', 'query', [
        'stateCategory',
        'priority',
        'updatedSince',
        'archived',
        'sort',
      ]),
      fields: Fields,
      cursor: Cursor,
      limit: Limit,
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const query: Record<string, unknown> = {
        ...pick(args, ['stateCategory', 'priority', 'updatedSince', 'archived', 'sort', 'cursor']),
        limit: args.limit ?? 25,
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
      const page = await call.run('tasks.list', { params: { orgId: org.id }, query })
      return { tasks: await taskRows(call, org.id, page.data, args.fields), nextCursor: page.nextCursor }
    },
  },
  {
    name: 'get_task',
    title: 'Get a task',
    description: 'One task by key (`ENG-42`) with its description and fields, states and people by name.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['tasks.get', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef }, ['task']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const task = await taskOf(call, org.id, args.task)
      const [row] = await taskRows(call, org.id, [task], TASK_FIELDS)
      return row
    },
  },
  {
    name: 'create_task',
    title: 'Create a task',
    description: 'Creates a task in a team; state and assignee by name. Returns the new task with its key.',
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
      },
      ['team', 'title'],
    ),
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
    description:
      'Changes fields of a task by key: title, description, priority, estimate, due date, state, assignee.',
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
    title: 'Move a task to a state',
    description: "Moves a task to another workflow state of its team, by the state's name.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['tasks.update', 'tasks.get', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef, state: StateRef }, ['task', 'state']),
    run: (call, args) =>
      updateTask(call, args, (orgId, task) => references(call, orgId, task.teamId, { state: args.state })),
  },
  {
    name: 'assign_task',
    title: 'Assign a task',
    description: 'Assigns a task to a person (email, name or `me`), or unassigns it with `assignee: null`.',
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
    description: 'Archives a task (it leaves lists; `organize` with `restore_task` brings it back).',
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

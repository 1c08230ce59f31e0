import { Type } from '@sinclair/typebox'
import { IdSchema, isProblem, type OrgId, PLAN_LINKS, ProblemError } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, TaskRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'
import { clip, peopleOf } from './detail.ts'

const LabelNames = Type.Array(
  Type.String({ minLength: 1, maxLength: 200, description: 'Label name (`Bug`, `Size/Large`) or id.' }),
  { maxItems: 20 },
)

async function taskOf(call: ToolCall, orgId: OrgId, ref: string) {
  const taskId = await call.resolve(orgId, 'task', ref)
  return call.run('tasks.get', { params: { orgId, taskId } })
}

/** A plan's pointers (`/body/steps/3/label`) as the tool's arguments (`/arguments/add/1`). */
function atArguments(error: unknown, changes: { arg: string; label: string }[]) {
  if (!isProblem(error)) return error
  const index = (i: number) => changes.slice(0, i).filter((c) => c.arg === changes[i]!.arg).length
  const pointer = (p: string) =>
    p.replace(/^\/body\/steps\/(\d+)(\/.*)?$/, (_, i) =>
      changes[+i] ? `/arguments/${changes[+i]!.arg}/${index(+i)}` : p,
    )
  return new ProblemError(error.code, error.message.replace(/Step \d+ \(\w+\) failed: /, ''), {
    ...(error.errors ? { errors: error.errors.map((e) => ({ ...e, pointer: pointer(e.pointer) })) } : {}),
    extensions: {
      ...error.extensions,
      step: undefined,
      ...(Array.isArray(error.extensions.unresolved)
        ? { unresolved: error.extensions.unresolved.map((u: any) => ({ ...u, pointer: pointer(u.pointer) })) }
        : {}),
    },
  })
}

/** A history value as a model reads it: long text clipped. */
const value = (v: unknown) => (typeof v === 'string' ? clip(v, 200) : v)

export const workTools: ToolDefinition[] = [
  {
    name: 'comment',
    title: 'Comment on a task',
    description: 'Comments on a task in Markdown, or replies in a thread with `replyTo` (a comment id).',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['tasks.comments.create', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        body: fieldOf('tasks.comments.create', 'body', 'body'),
        replyTo: Type.Optional(IdSchema('CommentId', 'The comment to reply to; replies join its thread.')),
      },
      ['task', 'body'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const c = await call.run('tasks.comments.create', {
        params: { orgId: org.id, taskId },
        body: { body: args.body, ...(args.replyTo ? { parentId: args.replyTo } : {}) },
      })
      return { id: c.id, task: args.task, replyTo: c.parentId, at: c.createdAt }
    },
  },
  {
    name: 'label_task',
    title: 'Label a task',
    description:
      "Adds and removes labels of a task; a label of a group replaces the task's other one of that group.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['plans.apply', 'tasks.labels.add', 'tasks.labels.remove', 'tasks.get', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        add: Type.Optional(LabelNames),
        remove: Type.Optional(LabelNames),
      },
      ['task'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const task = await taskOf(call, org.id, args.task)
      // One plan, so one transaction: every name is resolved first, and a failing change undoes the rest.
      const changes = [
        ...(args.remove ?? []).map((label: string) => ({ action: 'unlabel_task', arg: 'remove', label })),
        ...(args.add ?? []).map((label: string) => ({ action: 'label_task', arg: 'add', label })),
      ]
      if (changes.length)
        await call
          .run('plans.apply', {
            params: { orgId: org.id },
            body: { steps: changes.map((c) => ({ action: c.action, task: task.id, label: c.label })) },
          })
          .catch((error) => {
            throw atArguments(error, changes)
          })
      const updated = await call.run('tasks.get', { params: { orgId: org.id, taskId: task.id } })
      const labels = await Promise.all(
        updated.labelIds.map((labelId: string) =>
          call.run('labels.get', { params: { orgId: org.id, labelId } }),
        ),
      )
      return { key: updated.key, labels: labels.map((l: any) => l.name) }
    },
  },
  {
    name: 'link_tasks',
    title: 'Link or unlink two tasks',
    description:
      '`task` blocks / is blocked by / relates to / duplicates `other`; `unlink: true` removes it. A link closing a dependency cycle is refused.',
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: [
      'tasks.blockers.add',
      'tasks.blockers.remove',
      'tasks.relations.add',
      'tasks.relations.remove',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        link: Type.String({ enum: [...PLAN_LINKS], description: 'How `task` relates to `other`.' }),
        other: TaskRef,
        unlink: Type.Optional(Type.Boolean({ default: false, description: 'Remove the link instead.' })),
      },
      ['task', 'link', 'other'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const a = await call.resolve(org.id, 'task', args.task)
      const b = await call.resolve(org.id, 'task', args.other)
      const orgId = org.id
      const dependency = args.link === 'blocks' || args.link === 'blocked_by'
      // `task` blocks `other`: `other` is the blocked task, `task` its blocker.
      const [blocked, blocker] = args.link === 'blocks' ? [b, a] : [a, b]
      if (dependency && args.unlink)
        await call.run('tasks.blockers.remove', { params: { orgId, taskId: blocked, blockerId: blocker } })
      else if (dependency)
        await call.run('tasks.blockers.add', { params: { orgId, taskId: blocked, blockerId: blocker } })
      else if (args.unlink)
        await call.run('tasks.relations.remove', { params: { orgId, taskId: a, relatedTaskId: b } })
      else
        await call.run('tasks.relations.add', {
          params: { orgId, taskId: a, relatedTaskId: b },
          body: { type: args.link === 'related' ? 'related' : 'duplicateOf' },
        })
      return { task: args.task, link: args.link, other: args.other, linked: !args.unlink }
    },
  },
  {
    name: 'task_history',
    title: 'Task history',
    description: 'Who changed which field of a task and when, newest first.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['tasks.history.list', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef, cursor: Cursor, limit: Limit }, ['task']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const [page, people] = await Promise.all([
        call.run('tasks.history.list', {
          params: { orgId: org.id, taskId },
          query: { limit: args.limit ?? 25, ...(args.cursor ? { cursor: args.cursor } : {}) },
        }),
        peopleOf(call, org.id),
      ])
      return {
        history: page.data.map((h: any) => ({
          at: h.createdAt,
          by: people.get(h.actorId) ?? h.actorId,
          field: h.field,
          before: value(h.before),
          after: value(h.after),
        })),
        nextCursor: page.nextCursor,
      }
    },
  },
]

import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError, type Task } from '@workgraph/core'
import { taskRows } from '../rows.ts'
import { fieldOf, object, PersonRef, StateRef, TaskRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

const ACTIONS = ['accept', 'decline', 'duplicate', 'snooze'] as const

function need(value: unknown, name: string, action: string): void {
  if (value === undefined)
    throw new ProblemError('validation_failed', `\`${name}\` is required to ${action} a triage item.`)
}

/** The accept body: state, assignee and labels by name, in the task's team. */
async function acceptBody(call: ToolCall, orgId: OrgId, task: Task, args: any) {
  const team = task.key.split('-')[0]!
  return {
    ...(args.state ? { stateId: await call.resolve(orgId, 'state', args.state, team) } : {}),
    ...(args.assignee ? { assigneeId: await call.resolve(orgId, 'person', args.assignee) } : {}),
    ...(args.labels
      ? { labelIds: await Promise.all(args.labels.map((l: string) => call.resolve(orgId, 'label', l, team))) }
      : {}),
  }
}

export const triageTools: ToolDefinition[] = [
  {
    name: 'triage',
    title: 'Decide a triage item',
    description:
      'Acts on a task in triage: `accept` (into `state`, with `assignee`, `labels`), `decline` (with `reason`), `duplicate` (of `duplicateOf`) or `snooze` (`until`).',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'triage.accept',
      'triage.decline',
      'tasks.relations.add',
      'triage.snooze',
      'tasks.get',
      'names.resolve',
    ],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        action: Type.String({ enum: [...ACTIONS] }),
        state: Type.Optional(StateRef),
        assignee: Type.Optional(PersonRef),
        labels: Type.Optional(
          Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
            maxItems: 50,
            uniqueItems: true,
            description: 'Labels by name, added when accepting.',
          }),
        ),
        reason: Type.Optional(fieldOf('triage.decline', 'body', 'reason')),
        duplicateOf: Type.Optional(TaskRef),
        until: Type.Optional(fieldOf('triage.snooze', 'body', 'until')),
      },
      ['task', 'action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const taskId = await call.resolve(orgId, 'task', args.task)
      const params = { orgId, taskId }
      switch (args.action) {
        case 'accept': {
          const task: Task = await call.run('tasks.get', { params })
          const body = await acceptBody(call, orgId, task, args)
          return (await taskRows(call, orgId, [await call.run('triage.accept', { params, body })]))[0]
        }
        case 'decline': {
          need(args.reason, 'reason', 'decline')
          const done = await call.run('triage.decline', { params, body: { reason: args.reason } })
          return (await taskRows(call, orgId, [done]))[0]
        }
        case 'duplicate': {
          need(args.duplicateOf, 'duplicateOf', 'mark a duplicate')
          const of = await call.resolve(orgId, 'task', args.duplicateOf)
          // A triage decision acts on a task waiting in triage only; on one, the relation triages it.
          const task: Task = await call.run('tasks.get', { params })
          if (task.stateCategory !== 'triage' || task.archivedAt)
            throw new ProblemError('not_in_triage', `${task.key} is not waiting in triage.`)
          await call.run('tasks.relations.add', {
            params: { ...params, relatedTaskId: of },
            body: { type: 'duplicateOf' },
          })
          const done: Task = await call.run('tasks.get', { params })
          return { ...(await taskRows(call, orgId, [done]))[0], duplicateOf: args.duplicateOf }
        }
        default: {
          need(args.until, 'until', 'snooze')
          const item = await call.run('triage.snooze', { params, body: { until: args.until } })
          return { task: item.task.key, snoozedUntil: item.snoozedUntil }
        }
      }
    },
  },
]

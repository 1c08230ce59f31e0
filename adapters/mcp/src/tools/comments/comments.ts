import { Type } from '@sinclair/typebox'
import { IdSchema, ProblemError } from '@workgraph/core'
import { fieldOf, object, TaskRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'
import { EmojiArg, RemoveReaction, toggleReaction } from './reactions.ts'

const COMMENT_ACTIONS = ['edit', 'resolve', 'unresolve', 'delete', 'react', 'unreact'] as const
const needs = (ok: boolean, detail: string) => {
  if (!ok) throw new ProblemError('validation_failed', detail)
}

/** Tools for what people do to comments and tasks besides writing them: edit, resolve, react. */
export const commentTools: ToolDefinition[] = [
  {
    name: 'manage_comment',
    title: 'Edit, resolve, delete or react to a comment',
    description:
      'On a comment id: `edit` (yours), `resolve`/`unresolve` its thread, `delete` (replies stay), `react`/`unreact` with `emoji`.',
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: [
      'comments.update',
      'comments.resolve',
      'comments.unresolve',
      'comments.delete',
      'comments.reactions.create',
      'reactions.delete',
      'comments.reactions.list',
      'comments.get',
      'tasks.get',
    ],
    input: object(
      {
        workspace: Workspace,
        comment: IdSchema('CommentId', 'The comment, by id (from `get_task`).'),
        action: Type.String({ enum: [...COMMENT_ACTIONS] }),
        body: Type.Optional(fieldOf('comments.update', 'body', 'body')),
        emoji: Type.Optional(EmojiArg),
      },
      ['comment', 'action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const params = { orgId: org.id, commentId: args.comment }
      const { action } = args
      needs(action !== 'edit' || typeof args.body === 'string', '`body` is required to edit.')
      needs(!action.endsWith('react') || typeof args.emoji === 'string', '`emoji` is required to react.')
      if (action === 'react' || action === 'unreact') {
        const reactions = await toggleReaction(
          call,
          org.id,
          { kind: 'comments', commentId: args.comment },
          args.emoji,
          action === 'unreact',
        )
        return { comment: args.comment, reactions }
      }
      if (action === 'edit') await call.run('comments.update', { params, body: { body: args.body } })
      else await call.run(`comments.${action}`, { params })
      const c = await call.run('comments.get', { params })
      const task = c.taskId
        ? await call.run('tasks.get', { params: { orgId: org.id, taskId: c.taskId } })
        : null
      return {
        comment: c.id,
        ...(task ? { task: task.key } : { on: { type: c.subjectType, id: c.subjectId } }),
        resolved: c.resolvedAt !== null,
        deleted: c.deletedAt !== null,
        edited: c.editedAt !== null,
      }
    },
  },
  {
    name: 'react_to_task',
    title: 'React to a task',
    description: 'Adds your emoji reaction to a task, or removes it with `remove: true`.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['tasks.reactions.create', 'reactions.delete', 'tasks.reactions.list', 'names.resolve'],
    input: object({ workspace: Workspace, task: TaskRef, emoji: EmojiArg, remove: RemoveReaction }, [
      'task',
      'emoji',
    ]),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const reactions = await toggleReaction(
        call,
        org.id,
        { kind: 'tasks', taskId },
        args.emoji,
        args.remove === true,
      )
      return { task: args.task, reactions }
    },
  },
]

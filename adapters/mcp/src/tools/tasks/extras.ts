import { Type } from '@sinclair/typebox'
import { type OrgId, ProblemError } from '@workgraph/core'
import { fieldOf, object, PersonRef, TaskRef, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

const LINK_ACTIONS = ['list', 'add', 'update', 'remove'] as const
const linkRow = (l: any) => ({ id: l.id, url: l.url, title: l.title })

async function linksOf(call: ToolCall, orgId: OrgId, taskId: string) {
  const page = await call.run('tasks.links.list', { params: { orgId, taskId }, query: { limit: 50 } })
  return { links: page.data.map(linkRow), more: page.nextCursor !== null }
}

/** A link of the task by id or by its current URL: people remember the URL, not the id. */
async function linkOf(call: ToolCall, orgId: OrgId, taskId: string, ref: string | undefined) {
  if (!ref) throw new ProblemError('validation_failed', '`link` (its id or URL) is required for this action.')
  let cursor: string | null = null
  do {
    const page: any = await call.run('tasks.links.list', {
      params: { orgId, taskId },
      query: { limit: 200, ...(cursor ? { cursor } : {}) },
    })
    const found = page.data.find((l: any) => l.id === ref || l.url === ref)
    if (found) return found.id as string
    cursor = page.nextCursor
  } while (cursor)
  throw new ProblemError('not_found', `The task has no link ${ref}.`)
}

export const taskExtraTools: ToolDefinition[] = [
  {
    name: 'follow_task',
    title: 'Follow or unfollow a task',
    description: "Subscribes you (or `person`) to a task's changes; `unfollow: true` unsubscribes.",
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['tasks.subscribers.add', 'tasks.subscribers.remove', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        person: Type.Optional(PersonRef),
        unfollow: Type.Optional(Type.Boolean({ default: false, description: 'Unsubscribe instead.' })),
      },
      ['task'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const actorId = await call.resolve(org.id, 'person', args.person ?? 'me')
      const params = { orgId: org.id, taskId, actorId }
      await call.run(args.unfollow ? 'tasks.subscribers.remove' : 'tasks.subscribers.add', { params })
      return { task: args.task, person: args.person ?? 'me', following: !args.unfollow }
    },
  },
  {
    name: 'task_links',
    title: "A task's web links",
    description: "Lists, adds, updates or removes a task's URL links (a link by id or URL).",
    readOnly: false,
    destructive: true,
    idempotent: false,
    operations: ['tasks.links.list', 'tasks.links.create', 'links.update', 'links.delete', 'names.resolve'],
    input: object(
      {
        workspace: Workspace,
        task: TaskRef,
        action: Type.String({ enum: [...LINK_ACTIONS] }),
        link: Type.Optional(
          Type.String({
            minLength: 1,
            maxLength: 2048,
            description: 'The link to update or remove: id or URL.',
          }),
        ),
        url: Type.Optional(fieldOf('tasks.links.create', 'body', 'url')),
        title: Type.Optional(fieldOf('tasks.links.create', 'body', 'title')),
      },
      ['task', 'action'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const taskId = await call.resolve(orgId, 'task', args.task)
      const fields = Object.fromEntries(
        ['url', 'title'].filter((f) => args[f] !== undefined).map((f) => [f, args[f]]),
      )
      if (args.action === 'add') {
        if (!args.url) throw new ProblemError('validation_failed', '`url` is required to add a link.')
        await call.run('tasks.links.create', { params: { orgId, taskId }, body: fields })
      } else if (args.action !== 'list') {
        const linkId = await linkOf(call, orgId, taskId, args.link)
        if (args.action === 'remove') await call.run('links.delete', { params: { orgId, linkId } })
        else await call.run('links.update', { params: { orgId, linkId }, body: fields })
      }
      return { task: args.task, ...(await linksOf(call, orgId, taskId)) }
    },
  },
]

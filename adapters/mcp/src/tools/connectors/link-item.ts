import { fieldOf, object, TaskRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

export const connectorTools: ToolDefinition[] = [
  {
    name: 'link_item',
    title: 'Link an item of another tool to a task',
    description:
      'Links a URL (a GitHub issue, …) to a task; a connected provider fills in its title and state. Needs `connectors:link`.',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['tasks.linkedItems.create', 'names.resolve'],
    input: object(
      { workspace: Workspace, task: TaskRef, url: fieldOf('tasks.linkedItems.create', 'body', 'url') },
      ['task', 'url'],
    ),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const taskId = await call.resolve(org.id, 'task', args.task)
      const item = await call.run('tasks.linkedItems.create', {
        params: { orgId: org.id, taskId },
        body: { url: args.url },
      })
      return {
        id: item.id,
        url: item.url,
        provider: item.providerId,
        title: item.title,
        state: item.state,
        fetchedAt: item.fetchedAt,
      }
    },
  },
]

import { Type } from '@sinclair/typebox'
import { HUB_SEARCH_TYPES, IdSchema, type OrgId } from '@workgraph/core'
import { briefly, Cursor, fieldOf, Limit, object, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

/** The workspace filter of a hub read: an id, slug or name of one of the caller's workspaces. */
async function only(call: ToolCall, workspace: string | undefined): Promise<{ orgId?: OrgId }> {
  return workspace ? { orgId: (await call.workspace(workspace)).id } : {}
}

/** Hub tools: search and the inbox across every workspace of the caller. */
export const hubTools: ToolDefinition[] = [
  {
    name: 'search',
    title: 'Search all workspaces',
    description:
      'Full-text search of tasks, projects, initiatives, documents, comments and updates in every workspace, best first, with snippets.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['hub.search'],
    input: object(
      {
        query: fieldOf('hub.search', 'query', 'q', 'Words that begin words of the record.'),
        types: Type.Optional(
          Type.Array(Type.String({ enum: [...HUB_SEARCH_TYPES] }), {
            minItems: 1,
            uniqueItems: true,
            description: 'Default: all.',
          }),
        ),
        workspace: Workspace,
        limit: Limit,
        cursor: Cursor,
      },
      ['query'],
    ),
    async run(call, args) {
      const page = await call.run('hub.search', {
        query: {
          q: args.query,
          limit: args.limit ?? 25,
          ...(args.types ? { types: args.types.join(',') } : {}),
          ...(await only(call, args.workspace)),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
      return {
        results: page.data.map((h: any) => ({
          workspace: h.orgId,
          type: h.type,
          id: h.id,
          ...(h.key ? { key: h.key } : {}),
          ...(h.title ? { title: h.title } : {}),
          snippet: h.snippet,
          ...(h.parent ? { parent: h.parent } : {}),
        })),
        nextCursor: page.nextCursor,
        partial: page.partial,
      }
    },
  },
  {
    name: 'inbox',
    title: 'My notifications in all workspaces',
    description:
      'Your notifications, newest first (`unreadOnly`), or marks `{workspace, id}` items read/unread.',
    readOnly: false,
    destructive: false,
    idempotent: true,
    operations: ['hub.inbox', 'notifications.batch'],
    input: object({
      workspace: Workspace,
      unreadOnly: Type.Optional(Type.Boolean({ description: 'Only unread notifications.' })),
      markRead: Type.Optional(Marks('Notifications to mark read.')),
      markUnread: Type.Optional(Marks('Notifications to mark unread.')),
      limit: Limit,
      cursor: Cursor,
    }),
    async run(call, args) {
      const changes: Array<['read' | 'unread', Array<{ workspace: string; id: string }>]> = []
      if (args.markRead) changes.push(['read', args.markRead])
      if (args.markUnread) changes.push(['unread', args.markUnread])
      if (changes.length > 0) {
        const updated: Array<{ workspace: string; action: string; updated: number }> = []
        for (const [action, marks] of changes) {
          const byOrg = new Map<OrgId, string[]>()
          for (const mark of marks) {
            const orgId = (await call.workspace(mark.workspace)).id
            byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), mark.id])
          }
          for (const [orgId, ids] of byOrg) {
            const result = await call.run('notifications.batch', { params: { orgId }, body: { action, ids } })
            updated.push({ workspace: orgId, action, updated: result.updated })
          }
        }
        return { updated }
      }
      const page = await call.run('hub.inbox', {
        query: {
          limit: args.limit ?? 25,
          ...(args.unreadOnly ? { unread: true } : {}),
          ...(await only(call, args.workspace)),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
      return {
        notifications: page.data.map((n: any) => ({
          workspace: n.orgId,
          id: n.id,
          kind: n.kind,
          summary: n.summary,
          state: n.state,
          record: n.record,
          createdAt: n.createdAt,
        })),
        nextCursor: page.nextCursor,
        partial: page.partial,
      }
    },
  },
]

function Marks(description: string) {
  return Type.Array(
    Type.Object(
      {
        workspace: Type.String({
          minLength: 1,
          maxLength: 200,
        }),
        id: briefly(IdSchema('NotificationId'), ''),
      },
      { additionalProperties: false },
    ),
    { minItems: 1, maxItems: 200, description },
  )
}

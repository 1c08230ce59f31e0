import { Type } from '@sinclair/typebox'
import { Cursor, fieldOf, Limit, object, TeamRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

const readOnly = { readOnly: true, destructive: false, idempotent: true } as const

export const workspaceTools: ToolDefinition[] = [
  {
    name: 'list_workspaces',
    title: 'List workspaces',
    description: 'Your workspaces, with name and slug.',
    ...readOnly,
    operations: ['orgs.list'],
    input: object({ cursor: Cursor, limit: Limit }),
    async run(call, args) {
      const page = await call.run('orgs.list', {
        query: { limit: args.limit ?? 25, ...(args.cursor ? { cursor: args.cursor } : {}) },
      })
      return {
        workspaces: page.data.map((o: any) => ({ name: o.name, slug: o.slug, id: o.id })),
        nextCursor: page.nextCursor,
      }
    },
  },
  {
    name: 'create_workspace',
    title: 'Create a workspace',
    description: 'Creates a workspace you own; add teams with `organize` (`create_team`).',
    readOnly: false,
    destructive: false,
    idempotent: false,
    operations: ['orgs.create'],
    input: object({ name: fieldOf('orgs.create', 'body', 'name') }, ['name']),
    async run(call, args) {
      const org = await call.run('orgs.create', { body: { name: args.name } })
      return { name: org.name, slug: org.slug, id: org.id }
    },
  },
  {
    name: 'list_teams',
    title: 'List teams',
    description: 'Teams you can see, with key and name.',
    ...readOnly,
    operations: ['teams.list'],
    input: object({ workspace: Workspace, cursor: Cursor, limit: Limit }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const page = await call.run('teams.list', {
        params: { orgId: org.id },
        query: { limit: args.limit ?? 25, ...(args.cursor ? { cursor: args.cursor } : {}) },
      })
      return { teams: page.data.map((t: any) => ({ key: t.key, name: t.name })), nextCursor: page.nextCursor }
    },
  },
  {
    name: 'list_states',
    title: 'List workflow states',
    description: "A team's workflow states in order, with category.",
    ...readOnly,
    operations: ['states.list', 'names.resolve'],
    input: object({ workspace: Workspace, team: TeamRef }, ['team']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const teamId = await call.resolve(org.id, 'team', args.team)
      const page = await call.run('states.list', { params: { orgId: org.id, teamId } })
      return { states: page.data.map((s: any) => ({ name: s.name, category: s.category })) }
    },
  },
  {
    name: 'list_people',
    title: 'List people',
    description: 'Active people of a workspace: name, email, role.',
    ...readOnly,
    operations: ['members.list'],
    input: object({
      workspace: Workspace,
      cursor: Cursor,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const page = await call.run('members.list', {
        params: { orgId: org.id },
        query: { status: 'active', limit: args.limit ?? 50, ...(args.cursor ? { cursor: args.cursor } : {}) },
      })
      return {
        people: page.data.map((m: any) => ({ name: m.name, email: m.email, role: m.role })),
        nextCursor: page.nextCursor,
      }
    },
  },
]

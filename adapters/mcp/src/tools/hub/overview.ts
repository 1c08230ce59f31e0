import { Type } from '@sinclair/typebox'
import { HUB_RECORD_TYPES, type OrgId } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

async function only(call: ToolCall, workspace: string | undefined): Promise<{ orgId?: OrgId }> {
  return workspace ? { orgId: (await call.workspace(workspace)).id } : {}
}

const Types = Type.Optional(
  Type.Array(Type.String({ enum: [...HUB_RECORD_TYPES] }), {
    minItems: 1,
    uniqueItems: true,
    description: 'Default: all.',
  }),
)

/** Hub overviews over MCP (study §2.7): `portfolio`, `agenda`, `whats_new`. */
export const hubOverviewTools: ToolDefinition[] = [
  {
    name: 'portfolio',
    title: 'What I lead or follow',
    description:
      'Projects, programs and initiatives you lead, own or follow, worst health first, with progress and next milestone.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['hub.portfolio'],
    input: object({ types: Types, workspace: Workspace, limit: Limit, cursor: Cursor }),
    async run(call, args) {
      return call.run('hub.portfolio', {
        query: {
          limit: args.limit ?? 25,
          ...(args.types ? { types: args.types.join(',') } : {}),
          ...(await only(call, args.workspace)),
          ...(args.cursor ? { cursor: args.cursor } : {}),
        },
      })
    },
  },
  {
    name: 'agenda',
    title: 'My agenda',
    description:
      'Dated items from `from` to `to`: your tasks due, milestones, target dates, cycle starts and ends, plan time blocks.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['hub.agenda'],
    input: object(
      {
        from: fieldOf('hub.agenda', 'query', 'from'),
        to: fieldOf('hub.agenda', 'query', 'to'),
        workspace: Workspace,
      },
      ['from', 'to'],
    ),
    async run(call, args) {
      return call.run('hub.agenda', {
        query: { from: args.from, to: args.to, ...(await only(call, args.workspace)) },
      })
    },
  },
  {
    name: 'whats_new',
    title: 'What changed since',
    description:
      'What changed since `since` in what you lead, own or follow: updates, health and status, milestones, completed tasks.',
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['hub.digest'],
    input: object({ since: fieldOf('hub.digest', 'query', 'since'), types: Types, workspace: Workspace }, [
      'since',
    ]),
    async run(call, args) {
      return call.run('hub.digest', {
        query: {
          since: args.since,
          ...(args.types ? { types: args.types.join(',') } : {}),
          ...(await only(call, args.workspace)),
        },
      })
    },
  },
]

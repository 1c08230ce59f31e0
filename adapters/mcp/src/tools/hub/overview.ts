import { Type } from '@sinclair/typebox'
import { HUB_RECORD_TYPES, type OrgId } from '@workgraph/core'
import { Cursor, fieldOf, Limit, object, Workspace } from '../schema.ts'
import type { ToolCall, ToolDefinition } from '../types.ts'

async function only(call: ToolCall, workspace: string | undefined): Promise<{ orgId?: OrgId }> {
  return workspace ? { orgId: (await call.workspace(workspace)).id } : {}
}

const Partial = 'Workspaces left out because they failed or timed out are listed in `partial`.'

const Types = Type.Optional(
  Type.Array(Type.String({ enum: [...HUB_RECORD_TYPES] }), {
    minItems: 1,
    uniqueItems: true,
    description: 'Only these kinds of record (default: all).',
  }),
)

/** Hub overviews over MCP (study §2.7): `portfolio`, `agenda`, `whats_new`. */
export const hubOverviewTools: ToolDefinition[] = [
  {
    name: 'portfolio',
    title: 'What I lead or follow',
    description:
      'Projects, programs and initiatives you lead, own, belong to or follow in every workspace (or one `workspace`), ' +
      `worst health first: status, health, target date, progress, next milestone, latest update. ${Partial}`,
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
      'Dated items between `from` and `to` (days, inclusive) in every workspace: your open tasks due, milestones and ' +
      `target dates of what you lead or follow, your teams' cycle starts and ends, your daily plan's time blocks. ${Partial}`,
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
      'What changed since `since` in everything you lead, own, belong to or follow, per record: status updates, ' +
      `health and status changes, milestones finished, tasks completed. ${Partial}`,
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

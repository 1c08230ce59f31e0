import { Type } from '@sinclair/typebox'
import { connectionExample } from '../connectors/examples.ts'
import type { ConnectionRecord } from '../connectors/schemas.ts'
import { Connection } from '../connectors/schemas.ts'
import { publicConnection } from '../connectors/use.ts'
import { exampleId as id } from '../kernel/examples.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT, type Page, PageQuery, toPage } from '../kernel/pagination.ts'
import { PageOf } from '../kernel/schema-types.ts'
import { activeMemberships, callerId } from './profile/profile.ts'

/**
 * The person's connector connections in each workspace of which they are an active member: one
 * query per membership (each returns at most a page past the cursor), merged by id. Pages are exact.
 */
export async function listMyConnectorConnections(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Connection>> {
  const scope = `me.connections.list:${callerId(ctx)}`
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const after = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null
  const rows: ConnectionRecord[] = []
  for (const m of await activeMemberships(ctx))
    rows.push(
      ...(await ctx.store.connections.list(m.orgId, m.memberId, {
        sort: 'id',
        direction: 'asc',
        after,
        limit,
      })),
    )
  rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const page = toPage(rows.slice(0, limit + 1), limit, (last) =>
    ctx.cursors.encode(scope, { value: last.id, id: last.id }),
  )
  return { data: page.data.map(publicConnection), nextCursor: page.nextCursor }
}

export const connectorConnectionOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.connections.list',
    method: 'GET',
    path: '/v1/me/connections',
    tag: 'Me',
    scope: 'connectors:link',
    summary: 'List my connector connections',
    description:
      'The caller’s connections to other tools (`connections.*`) in every workspace where they are an active member, by id: metadata only, never tokens. Review them in one place; disconnect one with `connections.delete` in its workspace.',
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(Connection, 'ConnectorConnection'),
    status: 200,
    errors: ['invalid_cursor'],
    // Ada's GitHub connections in her two workspaces.
    examples: {
      response: {
        data: [connectionExample, { ...connectionExample, id: id('conn', 1), orgId: id('org', 1) }],
        nextCursor: null,
      },
    },
    run: (ctx, { query }) => listMyConnectorConnections(ctx, query as never),
  }),
]

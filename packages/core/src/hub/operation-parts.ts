import { type TProperties, type TSchema, Type } from '@sinclair/typebox'
import {
  type AnyOperation,
  declareOperation,
  type OperationContext,
  type OperationExamples,
} from '../kernel/operation.ts'
import type { ProblemCode } from '../kernel/problems.ts'
import { commaListPattern } from '../kernel/schema-types.ts'
import { HubPageOf, HubPageQuery } from './schemas.ts'
import { HUB_RECORD_TYPES } from './storage.ts'

// What the hub's operation declarations share.
export const TAG = 'Hub'
export const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
export const RELATED =
  'the projects, programs and initiatives you lead (a program’s or initiative’s owner), are a member of, or follow'
export const typesQuery = Type.Optional(
  Type.String({
    maxLength: 60,
    pattern: commaListPattern(HUB_RECORD_TYPES),
    description: `Comma-separated subset of ${HUB_RECORD_TYPES.map((t) => `\`${t}\``).join(', ')} (default: all).`,
  }),
)
export const ACROSS =
  'One permission-scoped query runs in each workspace you are an active member of, with your role and grants there, and the results are merged; no query spans workspaces. A workspace that fails or takes too long is listed in `partial` instead of failing the answer. The cursor is signed and holds one position per workspace: a workspace you join later starts at its beginning, one you leave drops out.'

/**
 * A paged list across workspaces: GET with `work:read`, its own `query` followed by the hub's page
 * query (`cursor`, `limit`, `orgId`), answering a hub page of `item` (`order` describes its data).
 */
export function hubListOperation(list: {
  id: string
  path: string
  summary: string
  description: string
  query?: TProperties
  item: TSchema
  order: string
  errors?: ProblemCode[]
  examples: OperationExamples
  // biome-ignore lint/suspicious/noExplicitAny: the query as its schema parsed it
  run: (ctx: OperationContext, query: any) => Promise<unknown>
}): AnyOperation {
  return declareOperation({
    id: list.id,
    method: 'GET',
    path: list.path,
    tag: TAG,
    scope: 'work:read',
    summary: list.summary,
    description: list.description,
    query: obj({ ...list.query, ...HubPageQuery }),
    response: HubPageOf(list.item, list.order),
    status: 200,
    errors: list.errors ?? ['invalid_cursor'],
    examples: list.examples,
    // biome-ignore lint/suspicious/noExplicitAny: the query as its schema parsed it
    run: (ctx: OperationContext, { query }: { query: any }) => list.run(ctx, query) as never,
  })
}

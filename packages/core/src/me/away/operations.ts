import { Type } from '@sinclair/typebox'
import { type AwayId, IdSchema } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { PageQuery } from '../../kernel/pagination.ts'
import { Nullable, PageOf, Timestamp } from '../../kernel/schema-types.ts'
import { PlanDate } from '../plan/schemas.ts'
import { AWAY_MAX_DAYS, createAway, deleteAway, getAway, listAway, updateAway } from './away.ts'

const AwayNote = Type.String({ maxLength: 500, description: 'For the person only; colleagues never see it.' })

export const Away = Type.Object(
  {
    id: IdSchema('AwayId'),
    startDate: PlanDate,
    endDate: PlanDate,
    note: Nullable(AwayNote),
    createdAt: Timestamp('When the period was declared.'),
    updatedAt: Timestamp('When it last changed.'),
  },
  {
    $id: 'Away',
    additionalProperties: false,
    description:
      'A period the caller is away, both days included, in their own calendar (their profile time zone, UTC without one).',
  },
)

const at = '2030-01-13T16:00:00.000Z'
const example = {
  id: 'awy_01JD3Q2R4S5T6V7W8X9YZABCDE',
  startDate: '2030-02-03',
  endDate: '2030-02-14',
  note: 'Skiing; Grace covers reviews.',
  createdAt: at,
  updatedAt: at,
}

const awayPath = '/v1/me/away'
const params = Type.Object({ awayId: IdSchema('AwayId') }, { additionalProperties: false })
const awayId = (p: unknown) => (p as { awayId: AwayId }).awayId

export const awayOperations: AnyOperation[] = [
  declareOperation({
    id: 'me.away.list',
    method: 'GET',
    path: awayPath,
    tag: 'Me',
    scope: 'work:read',
    summary: 'List my away periods',
    description: 'The periods the caller declared, past and future, by start date.',
    query: Type.Object(PageQuery, { additionalProperties: false }),
    response: PageOf(Away, 'Away'),
    status: 200,
    errors: ['invalid_cursor'],
    examples: { response: { data: [example], nextCursor: null } },
    run: (ctx, { query }) => listAway(ctx, query as never),
  }),
  declareOperation({
    id: 'me.away.create',
    method: 'POST',
    path: awayPath,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Declare a period away',
    description: `From \`startDate\` to \`endDate\`, both included (at most ${AWAY_MAX_DAYS} days). While it covers today, \`members.get\` and \`members.list\` show colleagues in every workspace \`away: {until}\` (never the note), and \`me.dailyPlan.carryOver\` onto a day in it moves nothing. A period may not share a day with another of the caller's (409 \`conflict\` with its \`awayId\`): change that one instead. A period that ends before it starts, or spans more days, is 422 \`rule_violated\`.`,
    body: Type.Object(
      { startDate: PlanDate, endDate: PlanDate, note: Type.Optional(Nullable(AwayNote)) },
      { additionalProperties: false },
    ),
    response: Away,
    status: 201,
    errors: ['conflict', 'rule_violated'],
    location: 'me.away.get',
    examples: {
      request: { startDate: '2030-02-03', endDate: '2030-02-14', note: 'Skiing; Grace covers reviews.' },
      response: example,
    },
    run: (ctx, { body }) => createAway(ctx, body as never),
  }),
  declareOperation({
    id: 'me.away.get',
    method: 'GET',
    path: `${awayPath}/{awayId}`,
    tag: 'Me',
    scope: 'work:read',
    summary: 'Get an away period',
    description: 'One of the caller’s periods, with an ETag for `If-Match`.',
    params,
    response: Away,
    status: 200,
    errors: ['not_found'],
    etag: true,
    examples: { response: example },
    run: (ctx, { params }) => getAway(ctx, awayId(params)),
  }),
  declareOperation({
    id: 'me.away.update',
    method: 'PATCH',
    path: `${awayPath}/{awayId}`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Change an away period',
    description:
      'Moves its dates or changes its note (null clears it). The same rules as `me.away.create`: dates in order, at most a year, no overlap with another period (409 `conflict`). A period that ends before it starts, or spans more days, is 422 `rule_violated`.',
    params,
    body: Type.Object(
      {
        startDate: Type.Optional(PlanDate),
        endDate: Type.Optional(PlanDate),
        note: Type.Optional(Nullable(AwayNote)),
      },
      { additionalProperties: false, minProperties: 1 },
    ),
    response: Away,
    status: 200,
    errors: ['not_found', 'conflict', 'rule_violated'],
    precondition: 'me.away.get',
    examples: { request: { endDate: '2030-02-16' }, response: { ...example, endDate: '2030-02-16' } },
    run: (ctx, { params, body }) => updateAway(ctx, awayId(params), body as never),
  }),
  declareOperation({
    id: 'me.away.delete',
    method: 'DELETE',
    path: `${awayPath}/{awayId}`,
    tag: 'Me',
    scope: 'work:write',
    summary: 'Cancel an away period',
    description: 'Deletes the period; colleagues no longer see the caller away during it.',
    params,
    response: null,
    status: 204,
    errors: ['not_found'],
    precondition: 'me.away.get',
    run: (ctx, { params }) => deleteAway(ctx, awayId(params)).then(() => undefined),
  }),
]

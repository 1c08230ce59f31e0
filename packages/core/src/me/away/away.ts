import { calendarDate } from '../../kernel/calendar.ts'
import { type AwayId, newId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import type { AwayPatch, AwayRecord } from '../../users/away.ts'
import { callerId } from '../profile/profile.ts'

/** The longest period one declaration covers; a longer absence is several periods. */
export const AWAY_MAX_DAYS = 366

export interface Away {
  id: AwayId
  startDate: string
  endDate: string
  note: string | null
  createdAt: string
  updatedAt: string
}

const toAway = ({ userId: _user, ...period }: AwayRecord): Away => period

const days = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / 86_400_000 + 1

async function requirePeriod(ctx: OperationContext, id: AwayId): Promise<AwayRecord> {
  const period = await ctx.store.away.get(callerId(ctx), id)
  if (!period) throw notFound('Away period')
  return period
}

/**
 * Dates must be real, in order and at most a year apart; a period may not share a day with another
 * of the person's (409 naming it): overlapping periods would make "away until" ambiguous, and
 * merging them silently would change a period the person did not touch.
 */
async function checkDates(
  ctx: OperationContext,
  startDate: string,
  endDate: string,
  pointers: { start: string; end: string },
  except?: AwayId,
): Promise<void> {
  calendarDate(startDate, pointers.start)
  calendarDate(endDate, pointers.end)
  if (endDate < startDate) {
    throw new ProblemError('rule_violated', 'The period ends before it starts.', {
      errors: [{ pointer: pointers.end, message: 'Must be on or after startDate' }],
    })
  }
  if (days(startDate, endDate) > AWAY_MAX_DAYS) {
    throw new ProblemError('rule_violated', `A period covers at most ${AWAY_MAX_DAYS} days.`, {
      errors: [{ pointer: pointers.end, message: `At most ${AWAY_MAX_DAYS} days after startDate` }],
    })
  }
  const [clash] = await ctx.store.away.overlapping(callerId(ctx), startDate, endDate, except, 1)
  if (clash) {
    throw new ProblemError(
      'conflict',
      `You are already away from ${clash.startDate} to ${clash.endDate}; change that period instead.`,
      { extensions: { awayId: clash.id } },
    )
  }
}

export async function listAway(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Away>> {
  const userId = callerId(ctx)
  const page = await readPage(ctx, {
    scope: ['me.away.list', userId],
    query,
    sort: 'startDate',
    direction: 'asc',
    keyOf: (p: AwayRecord) => p.startDate,
    fetch: (p) => ctx.store.away.list(userId, p),
  })
  return { data: page.data.map(toAway), nextCursor: page.nextCursor }
}

export async function getAway(ctx: OperationContext, id: AwayId): Promise<Away> {
  return toAway(await requirePeriod(ctx, id))
}

export async function createAway(
  ctx: OperationContext,
  input: { startDate: string; endDate: string; note?: string | null },
): Promise<Away> {
  await checkDates(ctx, input.startDate, input.endDate, { start: '/body/startDate', end: '/body/endDate' })
  const period: AwayRecord = {
    id: newId('AwayId'),
    userId: callerId(ctx),
    startDate: input.startDate,
    endDate: input.endDate,
    note: input.note ?? null,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  await ctx.store.away.insert(period)
  return toAway(period)
}

export async function updateAway(
  ctx: OperationContext,
  id: AwayId,
  change: { startDate?: string; endDate?: string; note?: string | null },
): Promise<Away> {
  const period = await requirePeriod(ctx, id)
  const startDate = change.startDate ?? period.startDate
  const endDate = change.endDate ?? period.endDate
  // A pointer at the field sent; an unchanged end that a new start passes is the start's fault.
  const pointer = (field: 'startDate' | 'endDate') =>
    change[field] !== undefined ? `/body/${field}` : `/body/${field === 'endDate' ? 'startDate' : 'endDate'}`
  await checkDates(ctx, startDate, endDate, { start: pointer('startDate'), end: pointer('endDate') }, id)
  const patch: AwayPatch = {}
  if (startDate !== period.startDate) patch.startDate = startDate
  if (endDate !== period.endDate) patch.endDate = endDate
  if (change.note !== undefined && change.note !== period.note) patch.note = change.note
  if (Object.keys(patch).length === 0) return toAway(period)
  patch.updatedAt = ctx.now
  await ctx.store.away.update(period.userId, id, patch)
  return toAway({ ...period, ...patch })
}

export async function deleteAway(ctx: OperationContext, id: AwayId): Promise<void> {
  if (!(await ctx.store.away.delete(callerId(ctx), id))) throw notFound('Away period')
}

import { shiftDateWithin } from '../kernel/calendar.ts'
import type { AwayId, UserId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { PageRequest } from '../kernel/pagination.ts'

/**
 * A period a person is away, in calendar dates of their own time zone, both days included. It
 * belongs to the person, not to a workspace: colleagues in every workspace see that they are away.
 * Its operations are `me.away.*`; it lives here so that members (a lower group) can read it.
 */
export interface AwayRecord {
  id: AwayId
  userId: UserId
  startDate: string
  endDate: string
  note: string | null
  createdAt: string
  updatedAt: string
}

export type AwayPatch = Partial<Pick<AwayRecord, 'startDate' | 'endDate' | 'note' | 'updatedAt'>>

export interface AwayRepo {
  insert(period: AwayRecord): Promise<void>
  get(userId: UserId, id: AwayId): Promise<AwayRecord | null>
  /** By start date, then id. */
  list(userId: UserId, page: PageRequest<'startDate'>): Promise<AwayRecord[]>
  /** The person's periods that share a day with `[from, to]`, other than `except` (at most `limit`). */
  overlapping(
    userId: UserId,
    from: string,
    to: string,
    except?: AwayId,
    limit?: number,
  ): Promise<AwayRecord[]>
  /** Periods of any of `userIds` that share a day with `[from, to]`. */
  covering(userIds: readonly UserId[], from: string, to: string): Promise<AwayRecord[]>
  update(userId: UserId, id: AwayId, patch: AwayPatch): Promise<void>
  /** Returns false when the person had no such period. */
  delete(userId: UserId, id: AwayId): Promise<boolean>
}

declare module '../kernel/storage.ts' {
  interface Store {
    away: AwayRepo
  }
}

/** The calendar date at `now` in a time zone (UTC when the person set none). */
export function localDate(now: string, timeZone: string | null): string {
  // en-CA formats as YYYY-MM-DD.
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timeZone ?? 'UTC',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(now))
}

/** What colleagues see of a period: only that the person is away and until when, never the note. */
export interface AwayNow {
  until: string
}

/**
 * Who of `userIds` is away today, each on their own calendar: the period covering their local date.
 * One query for the candidates around today (any time zone is within a day of UTC), then the time
 * zones of those few people only.
 */
export async function awayToday(
  ctx: OperationContext,
  userIds: readonly UserId[],
): Promise<Map<UserId, AwayNow>> {
  const out = new Map<UserId, AwayNow>()
  if (userIds.length === 0) return out
  const utc = ctx.now.slice(0, 10)
  const candidates = await ctx.store.away.covering(userIds, shiftDateWithin(utc, -1), shiftDateWithin(utc, 1))
  const zones = new Map<UserId, string | null>()
  for (const period of candidates) {
    if (!zones.has(period.userId))
      zones.set(period.userId, (await ctx.store.users.getProfile(period.userId))?.timeZone ?? null)
    const today = localDate(ctx.now, zones.get(period.userId) ?? null)
    if (period.startDate <= today && today <= period.endDate)
      out.set(period.userId, { until: period.endDate })
  }
  return out
}

/** The person's period covering `date`, if any. */
export async function awayOn(
  ctx: OperationContext,
  userId: UserId,
  date: string,
): Promise<AwayRecord | null> {
  return (await ctx.store.away.overlapping(userId, date, date, undefined, 1))[0] ?? null
}

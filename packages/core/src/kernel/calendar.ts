import { ProblemError } from './problems.ts'

/**
 * The calendar every record keeps to: years 1 to 9999, UTC. Both databases store these instants
 * and print them back as ISO 8601 (`date-time`, `date`). Postgres has no year 0. Past 9999,
 * JavaScript writes `+010000-…`, which Postgres refuses and which sorts before every real date as
 * text, so a loop `while (date <= to)` stepping past 9999-12-31 never ends.
 */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00Z')
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')
export const FIRST_DATE = '0001-01-01'
export const LAST_DATE = '9999-12-31'

const DAY_MS = 86_400_000

/** A real calendar date (`2030-02-30` matches the pattern but is no day), or a problem at `pointer`. */
export function calendarDate(value: string, pointer: string): string {
  const parsed = Date.parse(`${value}T00:00:00Z`)
  if (Number.isNaN(parsed) || new Date(parsed).toISOString().slice(0, 10) !== value) {
    throw new ProblemError('validation_failed', `${value} is not a calendar date.`, {
      errors: [{ pointer, message: 'Expected a calendar date, YYYY-MM-DD' }],
    })
  }
  return value
}

/** Whether an instant (ms since the epoch) is one a record may hold. */
export function isStorableInstant(ms: number): boolean {
  return ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT
}

/** A calendar date (`YYYY-MM-DD`) moved by `days`, or null outside the calendar. */
export function shiftDate(date: string, days: number): string | null {
  const ms = Date.parse(`${date}T00:00:00Z`) + days * DAY_MS
  return isStorableInstant(ms) ? new Date(ms).toISOString().slice(0, 10) : null
}

/** A calendar date moved by `days`, held at the calendar's first or last day. */
export function shiftDateWithin(date: string, days: number): string {
  return shiftDate(date, days) ?? (days > 0 ? LAST_DATE : FIRST_DATE)
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS)
}

/** Every date from `from` to `to`, both included, ending with the calendar at the latest. */
export function* datesFrom(from: string, to: string): Generator<string> {
  for (let date: string | null = from; date !== null && date <= to; date = shiftDate(date, 1)) yield date
}

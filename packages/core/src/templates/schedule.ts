import { WEEKDAYS } from '../cycles/schemas.ts'
import { LAST_DATE, shiftDate } from '../kernel/calendar.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Schedule } from './schemas.ts'

const DAY_MS = 86_400_000
/** How far ahead the next occurrence is looked for: longer than any schedule's period. */
const HORIZON_DAYS = 366 * 5

const toDays = (date: string) => Math.floor(Date.parse(`${date}T00:00:00.000Z`) / DAY_MS)
const fromDays = (days: number) => new Date(days * DAY_MS).toISOString().slice(0, 10)

// The calendar's last day (kernel/calendar.ts): occurrences are looked for up to it.
const LAST_DAY = toDays(LAST_DATE)

/**
 * `date` moved by `days`. Refused as `validation_failed` past the calendar (a start date in
 * December 9999 with a due offset, say).
 */
export function addDays(date: string, days: number): string {
  const moved = shiftDate(date, days)
  if (moved === null)
    throw new ProblemError(
      'rule_violated',
      `${days} days from ${date} falls outside the years 1 to 9999, where dates end.`,
    )
  return moved
}

/** The day after `date`, or null after the last day of the calendar. */
export const dayAfter = (date: string): string | null => shiftDate(date, 1)

/** Monday-based week number since the epoch (1970-01-01 was a Thursday). */
const weekOf = (days: number) => Math.floor((days + 3) / 7)

/** Whether `date` (on or after `start`) is an occurrence of the schedule counted from `start`. */
export function occursOn(schedule: Schedule, start: string, date: string): boolean {
  const day = toDays(date)
  const first = toDays(start)
  if (day < first) return false
  const interval = schedule.interval ?? 1
  const d = new Date(day * DAY_MS)
  switch (schedule.frequency) {
    case 'daily':
      return (day - first) % interval === 0
    case 'weekly':
      return (
        (schedule.weekdays ?? []).includes(WEEKDAYS[d.getUTCDay()]!) &&
        (weekOf(day) - weekOf(first)) % interval === 0
      )
    case 'monthly': {
      const s = new Date(first * DAY_MS)
      const months = (d.getUTCFullYear() - s.getUTCFullYear()) * 12 + d.getUTCMonth() - s.getUTCMonth()
      if (months % interval !== 0) return false
      const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate()
      return d.getUTCDate() === Math.min(schedule.monthDay ?? 1, last)
    }
  }
}

/**
 * The first occurrence on or after `from` (and `start`); null when none falls within five years or
 * before the calendar ends (`from` null: after its last day).
 */
export function nextOccurrence(schedule: Schedule, start: string, from: string | null): string | null {
  if (from === null) return null
  let day = Math.max(toDays(start), toDays(from))
  for (let i = 0; i < HORIZON_DAYS && day <= LAST_DAY; i++, day++) {
    if (occursOn(schedule, start, fromDays(day))) return fromDays(day)
  }
  return null
}

/** Checks that the schedule names what its frequency needs, with a problem pointing at the field. */
export function checkSchedule(schedule: Schedule, pointer: string): Schedule {
  const fail = (field: string, message: string) => {
    throw new ProblemError('rule_violated', message, {
      errors: [{ pointer: `${pointer}/${field}`, message }],
    })
  }
  if (schedule.frequency === 'weekly' && !schedule.weekdays?.length) {
    fail('weekdays', 'A weekly schedule needs `weekdays`.')
  }
  if (schedule.frequency !== 'weekly' && schedule.weekdays) {
    fail('weekdays', '`weekdays` is only for a weekly schedule.')
  }
  if (schedule.frequency === 'monthly' && schedule.monthDay === undefined) {
    fail('monthDay', 'A monthly schedule needs `monthDay`.')
  }
  if (schedule.frequency !== 'monthly' && schedule.monthDay !== undefined) {
    fail('monthDay', '`monthDay` is only for a monthly schedule.')
  }
  const out: Schedule = { frequency: schedule.frequency, interval: schedule.interval ?? 1 }
  if (schedule.weekdays) out.weekdays = WEEKDAYS.filter((d) => schedule.weekdays!.includes(d))
  if (schedule.monthDay !== undefined) out.monthDay = schedule.monthDay
  return out
}

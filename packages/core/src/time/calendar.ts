import { shiftDateWithin } from '../kernel/calendar.ts'

const DAY_MS = 86_400_000

/** The Monday of the ISO week holding `date`. */
export function weekOf(date: string): string {
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7
  return shiftDateWithin(date, -weekday)
}

/** The ISO week label of a Monday: `2030-W03` (the week belongs to the year of its Thursday). */
export function isoWeek(monday: string): string {
  const thursday = shiftDateWithin(monday, 3)
  const year = thursday.slice(0, 4)
  const week =
    Math.floor((Date.parse(`${thursday}T00:00:00Z`) - Date.parse(`${year}-01-01T00:00:00Z`)) / DAY_MS / 7) + 1
  return `${year}-W${String(week).padStart(2, '0')}`
}

/** The calendar day of an instant where the person lives (UTC when their time zone is unknown). */
export function dayIn(instant: string, timeZone: string | null): string {
  try {
    // en-CA formats as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone: timeZone ?? 'UTC' }).format(new Date(instant))
  } catch {
    return instant.slice(0, 10)
  }
}

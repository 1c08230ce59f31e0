import { FormatRegistry } from '@sinclair/typebox'
import { isStorableInstant } from '../calendar.ts'

// TypeBox refuses unknown formats, so the ones API schemas use are registered here, as JSON Schema
// defines them (RFC 3339 dates, RFC 3986 URIs), so that what the document admits is what the
// server admits: `Date.parse` alone reads `2024-02-30` as 1 March and `T24:00` as the next day.
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/i
// RFC 3986: a scheme, then only unreserved, reserved and percent-escaped ASCII.
const URI = /^[A-Za-z][A-Za-z0-9+.-]*:(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/

/** A day that exists: `2024-02-29` does, `2023-02-29` and `2024-04-31` do not. */
function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false
  const last = new Date(Date.UTC(2000, month, 0)).getUTCDate() // days in the month of a leap year
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  return day <= (month === 2 && !leap ? 28 : last)
}

/** RFC 3339 `full-date` between the years 1 and 9999 (what both databases store; kernel/calendar.ts). */
export function isDate(value: string): boolean {
  const m = DATE.exec(value)
  return (
    m !== null && isCalendarDay(+m[1]!, +m[2]!, +m[3]!) && isStorableInstant(Date.parse(`${value}T00:00:00Z`))
  )
}

/** RFC 3339 `date-time` (hours 00–23, no leap second) whose instant lies in the years 1 to 9999 (UTC). */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value)
  if (!m || !isCalendarDay(+m[1]!, +m[2]!, +m[3]!)) return false
  if (+m[4]! > 23 || +m[5]! > 59 || +m[6]! > 59) return false
  if (m[9] !== undefined && (+m[9] > 23 || +m[10]! > 59)) return false
  return isStorableInstant(Date.parse(value))
}

/** An absolute RFC 3986 URI: ASCII only (`https://例え.jp` is sent as `https://xn--r8jz45g.jp`). */
export function isUri(value: string): boolean {
  return URI.test(value) && URL.canParse(value)
}

FormatRegistry.Set('date-time', isDateTime)
FormatRegistry.Set('date', isDate)
FormatRegistry.Set('email', (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v))
FormatRegistry.Set('uri', isUri)

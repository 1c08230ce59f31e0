/**
 * The instants every record may hold: years 1 to 9999, UTC. Both databases store them and print
 * them back as ISO 8601 (`date-time`); Postgres has no year 0, and past 9999 JavaScript writes
 * `+010000-…`, which Postgres refuses and SQLite would sort before every real date.
 */
export const EARLIEST_INSTANT = Date.parse('0001-01-01T00:00:00Z')
export const LATEST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

/** Whether an instant (ms since the epoch) is one a record may hold. */
export function isStorableInstant(ms: number): boolean {
  return ms >= EARLIEST_INSTANT && ms <= LATEST_INSTANT
}

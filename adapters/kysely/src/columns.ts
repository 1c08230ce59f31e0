import type { ColumnType } from 'kysely'

/** Dates arrive as `Date` from Postgres and as ISO text from SQLite; writes are always ISO text. */
export type Timestamp = ColumnType<Date | string, string, string>
export type NullableTimestamp = ColumnType<Date | string | null, string | null, string | null>
/** Postgres returns bigint as text. */
export type BigIntColumn = ColumnType<string | number, number, number>
/** jsonb in Postgres (parsed on read), text in SQLite; always written as JSON text. */
export type JsonColumn = ColumnType<unknown, string, string>

/** Normalises what the two drivers return into the plain values core expects. */

/** What `toISOString` writes: SQLite hands back the stored text, which the app wrote in this form. */
const CANONICAL_ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

export function iso(value: Date | string): string {
  if (value instanceof Date) return value.toISOString()
  return CANONICAL_ISO.test(value) ? value : new Date(value).toISOString()
}

export function isoOrNull(value: Date | string | null): string | null {
  return value === null ? null : iso(value)
}

export function json<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : value) as T
}

export function int(value: string | number): number {
  return typeof value === 'number' ? value : Number(value)
}

/** Rows from SQLite keep nullable timestamps as text; this maps the listed keys through `isoOrNull`/`iso`. */
export function withDates<T extends Record<string, unknown>>(row: T, keys: readonly (keyof T)[]): T {
  const out: Record<string, unknown> = { ...row }
  for (const key of keys) {
    const v = row[key] as Date | string | null
    out[key as string] = v === null || v === undefined ? null : iso(v)
  }
  return out as T
}

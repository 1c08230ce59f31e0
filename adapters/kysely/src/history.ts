import type { PageRequest } from '@workgraph/core'
import type { Kysely } from 'kysely'
import { keysetPage } from './keyset.ts'
import { iso, json } from './normalize.ts'
import type { Database } from './schema.ts'

// Values sit in a `{ "v": … }` envelope: Postgres hands back a bare JSON string already parsed,
// SQLite as text, and only an object reads the same way from both.
export function wrapHistoryValue(value: unknown): string {
  return JSON.stringify({ v: value ?? null })
}

export function unwrapHistoryValue(column: unknown): unknown {
  return json<{ v: unknown }>(column).v
}

/** A field-change history table, named by the group that owns it, keyed by its holder's id column. */
export interface HistoryTable<H extends string> {
  readonly table: 'taskHistory' | 'projectHistory'
  readonly holder: H
  /** Columns besides the common ones, stored and read as they are (they follow `actorId`). */
  readonly extra?: readonly string[]
}

interface HistoryRecord {
  orgId: string
  id: string
  actorId: string | null
  field: string
  before?: unknown
  after?: unknown
  createdAt: string
}

// The tables share their columns but for the holder's; the builder is loosened here and only here.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = Kysely<any>

/** The insert of a change's entries (at least one) into a history table, as a query to run or compose. */
export function historyInsert<H extends string, R extends HistoryRecord & Record<H, string>>(
  db: Kysely<Database>,
  config: HistoryTable<H>,
  entries: readonly R[],
) {
  return historyRowsInsert(db, config.table, historyRows(config, entries))
}

/** The rows a change's entries are stored as. */
export function historyRows<H extends string, R extends HistoryRecord & Record<H, string>>(
  { holder, extra = [] }: HistoryTable<H>,
  entries: readonly R[],
): Record<string, unknown>[] {
  const extras = (source: Record<string, unknown>) => Object.fromEntries(extra.map((c) => [c, source[c]]))
  return entries.map((e) => ({
    orgId: e.orgId,
    id: e.id,
    [holder]: e[holder],
    actorId: e.actorId,
    ...extras(e),
    field: e.field,
    beforeValue: wrapHistoryValue(e.before),
    afterValue: wrapHistoryValue(e.after),
    createdAt: e.createdAt,
  }))
}

/** The insert of history rows (or stand-ins for them, see `rowsOnce`). */
export function historyRowsInsert(
  db: Kysely<Database>,
  table: HistoryTable<string>['table'],
  rows: readonly Record<string, unknown>[],
) {
  return (db as Loose).insertInto(table).values(rows as Record<string, unknown>[])
}

/** The repository of a history table: insert a change's entries, list a holder's oldest first. */
export function historyRepo<H extends string, R extends HistoryRecord & Record<H, string>, E>(
  db: Kysely<Database>,
  config: HistoryTable<H>,
) {
  const { table, holder, extra = [] } = config
  const holderColumn: string = holder
  const extras = (source: Record<string, unknown>) => Object.fromEntries(extra.map((c) => [c, source[c]]))
  return {
    async insert(entries: R[]): Promise<void> {
      if (entries.length === 0) return
      await historyInsert(db, config, entries).execute()
    },
    async list(orgId: string, holderId: string, page: PageRequest<'createdAt'>): Promise<E[]> {
      const q = (db as Loose)
        .selectFrom(table)
        .selectAll()
        .where('orgId', '=', orgId)
        .where(holderColumn, '=', holderId)
      const rows: Record<string, unknown>[] = await keysetPage(q, page, {
        sort: 'createdAt',
        id: 'id',
      }).execute()
      // The row holds what the core's writer recorded, whose type the entry's schema fixes.
      return rows.map(
        (r) =>
          ({
            id: r.id,
            [holder]: r[holder],
            actorId: r.actorId,
            ...extras(r),
            field: r.field,
            before: unwrapHistoryValue(r.beforeValue),
            after: unwrapHistoryValue(r.afterValue),
            createdAt: iso(r.createdAt as string),
          }) as E,
      )
    },
  }
}

import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

/**
 * The records whose deletion other groups' rows hang on. A kind is named after the record, not the
 * group: `tasks` clears its `projectId` when a `project` goes without knowing the projects folder.
 */
export type PurgeKind =
  | 'task'
  | 'cycle'
  | 'project'
  | 'milestone'
  | 'update'
  | 'initiative'
  | 'document'
  | 'program'

/** Removes every row hanging on the deleted records, in the one transaction `db` belongs to. */
export type Purge = (orgId: string, kind: PurgeKind, ids: readonly string[]) => Promise<void>

/**
 * One group's part of a delete: it removes (or detaches) only rows of its own tables. A part that
 * finds records of its own that hang on the deleted ones (a project's status updates) hands them
 * to `purge` with their kind, so the groups that hang on those run too.
 */
export type PurgePart = (
  db: Kysely<Database>,
  orgId: string,
  ids: readonly string[],
  purge: Purge,
) => Promise<void>

export interface GroupPurge {
  /** The adapter folder, which owns every table the parts write. */
  readonly group: string
  /** The kinds whose own rows this group deletes; its part for them runs after every other group's. */
  readonly owns: readonly PurgeKind[]
  readonly parts: Partial<Record<PurgeKind, PurgePart>>
}

/**
 * Rows of one table that hang on the deleted records: those whose `column` holds one of their ids
 * and, with `kind`, whose kind column names what they hang on (`['recordType', 'program']`).
 */
export type OwnedRows = {
  [T in keyof Database]: readonly [
    table: T,
    column: keyof Database[T] & string,
    kind?: readonly [column: keyof Database[T] & string, value: string],
  ]
}[keyof Database]

// Every table shares `orgId` and the part names its columns; the builder is loosened here and only here.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = Kysely<any>

/**
 * A purge part that deletes, in the order given, each `[table, column]`'s rows hanging on the
 * deleted ids: a group's part is the list of what it owns (`scripts/check-table-owners.ts` checks
 * the tables are the calling folder's).
 */
export function deleteRows(...rows: readonly OwnedRows[]): PurgePart {
  return async (db, orgId, ids) => {
    for (const [table, column, kind] of rows) {
      let query = (db as Loose).deleteFrom(table).where('orgId', '=', orgId)
      if (kind) query = query.where(kind[0], '=', kind[1])
      await query.where(column, 'in', [...ids]).execute()
    }
  }
}

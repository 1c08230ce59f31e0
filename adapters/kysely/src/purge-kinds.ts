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

import type { PageRequest, ReadScope } from '@workgraph/core'
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import { keysetPage } from './keyset.ts'
import type { Database } from './schema.ts'
import { inVisibleTeams } from './scope.ts'

/**
 * A join table of one holder (a project, program or initiative) to its members, teams or labels:
 * one row per pair, named by the group that owns it.
 */
export interface JoinTable<H extends string, O extends string, A extends string> {
  readonly table:
    | 'projectMembers'
    | 'projectTeams'
    | 'projectLabels'
    | 'initiativeMembers'
    | 'programMembers'
    | 'programTeams'
  /** The holder's id column (`projectId`), the joined id column (`memberId`) and the time it was added. */
  readonly holder: H
  readonly other: O
  readonly at: A
}

export type JoinRow<H extends string, O extends string, A extends string> = Record<H | O, string> &
  Record<A, unknown>

// The tables share their shape but for the column names; the builder is loosened here and only here.
// biome-ignore lint/suspicious/noExplicitAny: see above
type Loose = Kysely<any>
// biome-ignore lint/suspicious/noExplicitAny: see above
type Narrow = (eb: ExpressionBuilder<any, any>) => Expression<SqlBool>

/** Page, read, add (idempotent: false when the pair exists) and remove (false when it did not) one pair. */
export function joinTable<H extends string, O extends string, A extends string>(
  db: Kysely<Database>,
  join: JoinTable<H, O, A>,
) {
  // Plain strings from here on: the loose builder types no column of a generic name.
  const { table, holder, other, at }: { table: string; holder: string; other: string; at: string } = join
  type Row = JoinRow<H, O, A>
  const rows = (orgId: string, holderId: string) =>
    (db as Loose)
      .selectFrom(table)
      .select([holder, other, at])
      .where('orgId', '=', orgId)
      .where(holder, '=', holderId)
  return {
    /** The holder's rows by `sort` (then the joined id); `narrow` is the caller's permission predicate. */
    async list(
      orgId: string,
      holderId: string,
      page: PageRequest,
      sort: A | O,
      narrow?: Narrow,
    ): Promise<Row[]> {
      let q = rows(orgId, holderId)
      if (narrow) q = q.where(narrow)
      return (await keysetPage(q, page, { sort, id: other }).execute()) as Row[]
    },
    async get(orgId: string, holderId: string, otherId: string): Promise<Row | null> {
      return (
        ((await rows(orgId, holderId).where(other, '=', otherId).executeTakeFirst()) as Row | undefined) ??
        null
      )
    },
    async add(orgId: string, holderId: string, otherId: string, addedAt: string): Promise<boolean> {
      const result = await (db as Loose)
        .insertInto(table)
        .values({ orgId, [holder]: holderId, [other]: otherId, [at]: addedAt })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async remove(orgId: string, holderId: string, otherId: string): Promise<boolean> {
      const result = await (db as Loose)
        .deleteFrom(table)
        .where('orgId', '=', orgId)
        .where(holder, '=', holderId)
        .where(other, '=', otherId)
        .executeTakeFirst()
      return Number(result.numDeletedRows) > 0
    },
  }
}

/** For a teams join table: the reader may view the row's team. */
export const teamIn =
  (scope: ReadScope): Narrow =>
  (eb) =>
    inVisibleTeams(eb, 'teamId', scope)

import type { OrgId } from '@workgraph/core'
import { type Kysely, sql } from 'kysely'
import { int } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'

/** The tables that keep one reader's position (`org_id`, `seq`) in each workspace's event log. */
export type PositionTable = 'notifierPositions' | 'mailPositions' | 'ruleEnginePositions'

/**
 * The position of a reader that acts once per event however many instances run (the notifier, the
 * mail pass, the automation rules): it claims its position in a workspace inside a transaction,
 * advances it in the same transaction as what it did, and finds the workspaces whose log has moved
 * past it.
 */
export function eventPositions(db: Kysely<Database>, dialect: Dialect, table: PositionTable) {
  // The three tables have the same columns: typed as one of them, every statement runs on `table`.
  const positions = table as 'notifierPositions'
  return {
    async claim(orgId: OrgId): Promise<number> {
      // The write comes first: on SQLite it takes the database's write lock before the read; on
      // Postgres the row lock below serialises two readers of one workspace.
      await db
        .insertInto(positions)
        .values({ orgId, seq: 0 })
        .onConflict((oc) => oc.column('orgId').doNothing())
        .execute()
      let q = db.selectFrom(positions).select('seq').where('orgId', '=', orgId)
      if (dialect === 'postgres') q = q.forUpdate()
      return int((await q.executeTakeFirstOrThrow()).seq)
    },
    async advance(orgId: OrgId, seq: number): Promise<void> {
      await db.updateTable(positions).set({ seq }).where('orgId', '=', orgId).execute()
    },
    /** Up to `limit` active workspaces whose log has events past the position. */
    async behind(limit: number): Promise<OrgId[]> {
      const rows = await db
        .selectFrom('orgEventCounters as c')
        .innerJoin('orgs as o', 'o.id', 'c.orgId')
        .leftJoin(`${positions} as p`, 'p.orgId', 'c.orgId')
        .select('c.orgId')
        .where('o.archivedAt', 'is', null)
        .where((eb) => eb('c.lastSeq', '>', eb.fn.coalesce('p.seq', sql<number>`0`)))
        .orderBy('c.orgId')
        .limit(limit)
        .execute()
      return rows.map((r) => r.orgId as OrgId)
    },
  }
}

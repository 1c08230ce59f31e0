import { generateNKeysBetween } from 'fractional-indexing'
import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** The three hand-ordered lists a task stands in, each its own rank column keyed by the list's column. */
const LISTS = [
  { rank: 'board_rank', list: 'state_id' },
  { rank: 'project_rank', list: 'project_id' },
  { rank: 'cycle_rank', list: 'cycle_id' },
] as const

/** Rows rewritten per statement while backfilling. */
const BATCH = 500

/**
 * Manual order (docs/api-conventions.md, "Order"): a task's rank in its board column (the team's
 * state), in its project and in its cycle, each a fractional-indexing key, so a move writes one row.
 * Ranks compare byte-wise: Postgres keeps them in the "C" collation (a language collation would put
 * `a` before `B`); SQLite compares text byte-wise already. Each list's ranks are unique among its
 * undeleted tasks (the engine takes the list's lock to place one), which the partial indexes
 * enforce and which also serve `sort=rank`.
 *
 * Existing tasks are ranked in the order they were created (then by id), on both databases.
 * SQLite cannot add a NOT NULL column without a default, so only Postgres marks `board_rank` NOT
 * NULL after the backfill; the engine always writes it.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  for (const { rank } of LISTS) {
    if (dialect === 'postgres')
      await sql`alter table tasks add column ${sql.id(rank)} text collate "C"`.execute(db)
    else await sql`alter table tasks add column ${sql.id(rank)} text`.execute(db)
  }
  for (const { rank, list } of LISTS) await backfill(db, rank, list)
  if (dialect === 'postgres') await sql`alter table tasks alter column board_rank set not null`.execute(db)
  for (const { rank, list } of LISTS) {
    const name = `tasks_${rank}`
    const member = list === 'state_id' ? sql`` : sql` and ${sql.id(list)} is not null`
    await sql`create unique index ${sql.id(name)} on tasks (org_id, ${sql.id(list)}, ${sql.id(rank)})
      where deleted_at is null${member}`.execute(db)
  }
}

/** Ranks every task of each list (deleted ones too) in creation order: `a0`, `a1`, … per list. */
async function backfill(db: Kysely<any>, rank: string, list: string): Promise<void> {
  const rows = (
    await sql<{ org_id: string; list_id: string; id: string }>`
    select org_id, ${sql.id(list)} as list_id, id from tasks
    where ${sql.id(list)} is not null
    order by org_id, ${sql.id(list)}, created_at, id`.execute(db)
  ).rows
  const ranked: Array<[string, string]> = []
  for (let start = 0; start < rows.length; ) {
    let end = start
    const first = rows[start]!
    while (end < rows.length && rows[end]!.org_id === first.org_id && rows[end]!.list_id === first.list_id)
      end++
    const keys = generateNKeysBetween(null, null, end - start)
    for (let i = start; i < end; i++) ranked.push([rows[i]!.id, keys[i - start]!])
    start = end
  }
  for (let i = 0; i < ranked.length; i += BATCH) {
    const batch = ranked.slice(i, i + BATCH)
    const cases = sql.join(
      batch.map(([id, key]) => sql`when ${id} then ${key}`),
      sql` `,
    )
    await sql`update tasks set ${sql.id(rank)} = case id ${cases} end
      where id in (${sql.join(batch.map(([id]) => id))})`.execute(db)
  }
}

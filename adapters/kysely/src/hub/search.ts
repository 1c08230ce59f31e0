import type { HubSearchType, OrgId, PageRequest, ReadScope } from '@workgraph/core'
import type { SearchHit } from '@workgraph/core/storage'
import { type Kysely, type RawBuilder, sql } from 'kysely'
import { iso } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { tsQuery, workspaceFtsQuery } from '../text.ts'
import { BRANCHES } from './search-branches.ts'

// The branches are typed loosely: each selects the same columns from a different table.
type AnyQuery = any

/** A position in the search's order: (rank desc, id desc). */
type After = PageRequest<'rank'>['after']

/**
 * On Postgres, what of a row of each kind is never a hit whoever reads (deleted, archived): left out
 * of the candidates already, where it costs nothing (the branch checks it again with the visibility).
 */
const LIVE: Record<HubSearchType, string> = {
  task: 'deleted_at is null and archived_at is null',
  project: 'archived_at is null',
  initiative: 'archived_at is null',
  document: 'archived_at is null',
  comment: 'deleted_at is null and body is not null',
  update: 'archived_at is null',
}

/**
 * One workspace's hits, best first (rank desc, then id desc), `limit + 1` of them after the cursor.
 *
 * The full-text engine ranks and limits first, then only its best candidates are read: the
 * candidates are the matches' (kind, id, rank), ordered and limited inside the database (SQLite: one
 * FTS5 query over every kind of the workspace with bm25, the title weighing 10 to the body's 1;
 * Postgres: each kind's GIN match with `ts_rank`), and only they are joined to their records and
 * checked against the reader's visibility. A candidate the reader may not view (or archived,
 * deleted) leaves a gap: when the candidates run out before the page is full, the next candidates
 * after the last one are read, four times as many each time. Every candidate after the cursor is
 * ordered after the ones read, so the page is exact.
 */
export async function searchHits(
  db: Kysely<Database>,
  dialect: Dialect,
  input: {
    orgId: OrgId
    terms: readonly string[]
    types: readonly HubSearchType[]
    scope: ReadScope
    page: PageRequest<'rank'>
  },
): Promise<SearchHit[]> {
  const { orgId, terms, types, scope, page } = input
  if (terms.length === 0 || types.length === 0) return []
  const want = page.limit + 1
  const hits: SearchHit[] = []
  let after = page.after
  for (let count = 2 * want; ; count *= 4) {
    const found = await candidatesRead(db, dialect, { orgId, terms, types, scope, after, count })
    hits.push(...found.hits)
    if (hits.length >= want || found.candidates < count) return hits.slice(0, want)
    after = found.last
  }
}

/**
 * One statement: the `count` best candidates after `after` (a materialized common table), the
 * visible hits among them, and the candidates themselves (to tell whether more may follow).
 */
async function candidatesRead(
  db: Kysely<Database>,
  dialect: Dialect,
  input: {
    orgId: OrgId
    terms: readonly string[]
    types: readonly HubSearchType[]
    scope: ReadScope
    after: After
    count: number
  },
): Promise<{ hits: SearchHit[]; candidates: number; last: After }> {
  const { orgId, terms, types, scope, after, count } = input
  const branches = types.map((type) => {
    const branch = BRANCHES[type]
    return (
      (branch.build(db, scope) as AnyQuery)
        .innerJoin('top', (j: AnyQuery) =>
          j.on('top.kind', '=', type).onRef('top.id', '=', `${branch.table}.id`),
        )
        .where(`${branch.table}.orgId`, '=', orgId)
        // The same candidates again as the key's second column: without it SQLite, which keeps no
        // statistics, read every row of the workspace's table (10,000 tasks, 1,000 comments with their
        // visibility) and looked each up among the candidates; with it, one primary-key read each.
        .where(`${branch.table}.id`, 'in', (eb: AnyQuery) =>
          eb.selectFrom('top').select('top.id').where('top.kind', '=', type),
        )
        .select([sql.lit(0).as('part'), 'top.score as score'])
    )
  })
  const nothing = sql`null`
  const candidates = db
    .selectFrom('top' as never)
    .select([
      sql`top.kind`.as('type'),
      sql`top.id`.as('id'),
      nothing.as('title'),
      nothing.as('body'),
      nothing.as('key'),
      nothing.as('parentType'),
      nothing.as('parentId'),
      nothing.as('updatedAt'),
      sql.lit(1).as('part'),
      sql`top.score`.as('score'),
    ])
  const union = [...branches, candidates].reduce((all: AnyQuery, next: AnyQuery) => all.unionAll(next))
  const rows = (await db
    .with(
      (cte) => cte('top' as never).materialized(),
      () => topCandidates(dialect, { orgId, terms, types, after, count }) as never,
    )
    .selectFrom(union.as('r'))
    .selectAll()
    .orderBy('part')
    .orderBy('score', 'desc')
    .orderBy('id', 'desc')
    .execute()) as Array<Record<string, unknown>>
  const hits: SearchHit[] = []
  let candidateCount = 0
  let last: After = null
  for (const r of rows) {
    if (Number(r.part) === 1) {
      candidateCount++
      last = { value: Number(r.score), id: r.id as string }
      continue
    }
    hits.push({
      type: r.type as HubSearchType,
      id: r.id as string,
      title: (r.title as string | null) ?? null,
      body: (r.body as string | null) ?? '',
      key: (r.key as string | null) ?? null,
      parentType: (r.parentType as string | null) ?? null,
      parentId: (r.parentId as string | null) ?? null,
      updatedAt: iso(r.updatedAt as string),
      rank: Number(r.score),
    })
  }
  return { hits, candidates: candidateCount, last }
}

/**
 * The `count` best matches of the workspace after `after`: (kind, id, score), ordered and limited in
 * the database. SQLite: one FTS5 query over every kind (the entry's kind and record id by its
 * primary key), scored with bm25 negated so that higher is better. Postgres: each kind's GIN match
 * with `ts_rank` (float8, so a cursor's value compares exactly).
 */
function topCandidates(
  dialect: Dialect,
  input: {
    orgId: OrgId
    terms: readonly string[]
    types: readonly HubSearchType[]
    after: After
    count: number
  },
): RawBuilder<unknown> {
  const { orgId, terms, types, after, count } = input
  let matches: RawBuilder<unknown>
  if (dialect === 'sqlite') {
    const kinds =
      types.length < Object.keys(BRANCHES).length ? sql`and se.kind in (${sql.join(types)})` : sql``
    matches = sql`select se.kind as kind, se.record_id as id, -bm25(search_fts, 10.0, 1.0, 0.0) as score
      from search_fts join search_entries se on se.seq = search_fts.rowid
      where search_fts match ${workspaceFtsQuery(orgId, terms)} and se.org_id = ${orgId} ${kinds}`
  } else {
    const query = tsQuery(terms)
    matches = sql.join(
      types.map((type) => {
        const t = sql.raw(BRANCHES[type].sqlName)
        return sql`select ${type}::text as kind, id, ts_rank(search, to_tsquery('simple', ${query}))::float8 as score
          from ${t} where org_id = ${orgId} and search @@ to_tsquery('simple', ${query}) and ${sql.raw(LIVE[type])}`
      }),
      sql` union all `,
    )
  }
  const cursor = after
    ? sql`where c.score < ${after.value} or (c.score = ${after.value} and c.id < ${after.id})`
    : sql``
  // Kysely writes a raw common table expression as it is: the parentheses are ours.
  return sql`(select c.kind, c.id, c.score from (${matches}) c ${cursor}
    order by c.score desc, c.id desc limit ${sql.lit(count)})`
}

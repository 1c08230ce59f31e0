import type { OrgId, PageRequest, ReadScope } from '@workgraph/core'
import type { DocumentFilter, RankedDocument } from '@workgraph/core/storage'
import { type Kysely, type SqlBool, sql } from 'kysely'
import { keysetPage } from '../keyset.ts'
import type { Database, Dialect } from '../schema.ts'
import { filteredDocuments, toDocument } from './rows.ts'

/**
 * A ranked full-text search in each database's own engine: FTS5 with bm25 on SQLite, the GIN-indexed
 * `tsvector` with `ts_rank` on Postgres. Every term must match as a word prefix; the title weighs
 * more than the content. The rank is a column of a subquery so the keyset compares (rank, id) as
 * the page was ordered; terms are letters, digits and marks only (core's `documentSearchTerms`), so
 * they need no escaping in either query language.
 */
export async function searchDocuments(
  db: Kysely<Database>,
  dialect: Dialect,
  orgId: OrgId,
  filter: DocumentFilter & { search: string[] },
  page: PageRequest<'rank'>,
  scope: ReadScope,
): Promise<RankedDocument[]> {
  const base = filteredDocuments(db, orgId, filter, scope)
  const ranked =
    dialect === 'sqlite'
      ? base
          .innerJoin(sql<{ rowid: number }>`documents_fts`.as('documents_fts'), (j) =>
            j.on(sql<SqlBool>`documents_fts.rowid = documents.seq`),
          )
          .where(sql<SqlBool>`documents_fts match ${filter.search.map((t) => `"${t}"*`).join(' ')}`)
          // bm25 is lower for better matches; negated so that higher is better on both databases.
          .select(sql<number>`-bm25(documents_fts, 10.0, 1.0)`.as('rank'))
      : base
          .where(sql<SqlBool>`documents.search @@ ${tsQuery(filter.search)}`)
          // float8, so the value a cursor carries compares exactly with the column.
          .select(sql<number>`ts_rank(documents.search, ${tsQuery(filter.search)})::float8`.as('rank'))
  const rows = await keysetPage(db.selectFrom(ranked.as('ranked')).selectAll(), page, {
    sort: 'rank',
    id: 'id',
  }).execute()
  return rows.map((r) => ({ ...toDocument(r as never), rank: Number(r.rank) }))
}

const tsQuery = (terms: string[]) => sql`to_tsquery('simple', ${terms.map((t) => `'${t}':*`).join(' & ')})`

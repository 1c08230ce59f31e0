import type { Static } from '@sinclair/typebox'
import type { OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { PAGE_LIMIT_DEFAULT } from '../../kernel/pagination.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { fullTextTerms } from '../../kernel/text-search.ts'
import { fanOut } from '../fanout.ts'
import { mergeOrgRows, openHubCursor, sealHubCursor } from '../paging.ts'
import type { HubPageOf, SearchHitSchema } from '../schemas.ts'
import { HUB_SEARCH_TYPES, type HubSearchType, type SearchHit } from '../storage.ts'

/** Most words a hub search takes. */
export const HUB_SEARCH_MAX_TERMS = 8

export interface HubSearchQuery {
  q: string
  types?: string
  orgId?: string
  cursor?: string
  limit?: number
}

/** Per workspace: the last (rank, id) returned, and the workspace's best rank for this query. */
interface SearchPosition {
  r: number
  i: string
  b: number
}

const isPosition = (v: unknown): v is SearchPosition =>
  typeof v === 'object' &&
  v !== null &&
  typeof (v as SearchPosition).r === 'number' &&
  typeof (v as SearchPosition).i === 'string' &&
  typeof (v as SearchPosition).b === 'number' &&
  (v as SearchPosition).b > 0

type Hit = Static<typeof SearchHitSchema>

/**
 * Ranked full-text search in every workspace of the caller: one permission-scoped query per
 * membership (each database's own engine), merged in code. Engine scores are not comparable across
 * workspaces, so each hit's `score` is its rank over the best rank of its workspace for the query
 * (kept in the cursor, so later pages normalise the same way); the merge orders by (score desc,
 * updatedAt desc, orgId), each workspace keeping its own (rank, id) order.
 */
export async function hubSearch(
  ctx: OperationContext,
  query: HubSearchQuery,
): Promise<Static<ReturnType<typeof HubPageOf<typeof SearchHitSchema>>>> {
  const terms = fullTextTerms(query.q, HUB_SEARCH_MAX_TERMS)
  if (terms.length === 0) {
    throw new ProblemError('rule_violated', 'Search for at least one word (letters or digits).', {
      errors: [{ pointer: '/query/q', message: 'No word to search for' }],
    })
  }
  const types = parseTypes(query.types)
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  const scope = ['hub.search', ctx.principal!.userId, terms, types, query.orgId ?? null]
  const previous = openHubCursor(ctx.cursors, scope, query.cursor, isPosition)
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      const at = previous.get(reader.orgId)
      const rows = await ctx.store.hubReads.search(reader.orgId, terms, types, reader.scope, {
        sort: 'rank',
        direction: 'desc',
        after: at ? { value: at.r, id: at.i } : null,
        limit,
      })
      return { rows, best: at?.b ?? rows[0]?.rank ?? 0 }
    },
    { only: query.orgId as OrgId | undefined },
  )
  const best = new Map(results.map((r) => [r.orgId, r.value.best]))
  const score = (orgId: OrgId, hit: SearchHit) => {
    const b = best.get(orgId) ?? 0
    return b > 0 ? Math.min(1, Math.max(0, hit.rank / b)) : 0
  }
  const merged = mergeOrgRows(
    results.map((r) => ({ orgId: r.orgId, rows: r.value.rows })),
    previous,
    {
      limit,
      keep: partial.map((p) => p.orgId),
      before: (a, b) => {
        const sa = score(a.orgId, a.row)
        const sb = score(b.orgId, b.row)
        if (sa !== sb) return sa > sb
        if (a.row.updatedAt !== b.row.updatedAt) return a.row.updatedAt > b.row.updatedAt
        return a.orgId < b.orgId
      },
      positionOf: (row) => ({ r: row.rank, i: row.id, b: 0 }),
    },
  )
  // The best rank of each workspace travels with its position.
  for (const [orgId, position] of merged.positions) {
    const b = best.get(orgId) ?? previous.get(orgId)?.b
    if (b && b > 0) merged.positions.set(orgId, { ...position, b })
    else merged.positions.delete(orgId)
  }
  return {
    data: merged.data.map(({ orgId, row }) => present(orgId, row, terms, score(orgId, row))),
    nextCursor: sealHubCursor(ctx.cursors, scope, merged.positions, merged.more),
    partial,
  }
}

function parseTypes(types: string | undefined): HubSearchType[] {
  if (types === undefined) return [...HUB_SEARCH_TYPES]
  const given = [...new Set(types.split(',').map((t) => t.trim()))]
  const unknown = given.filter((t) => !(HUB_SEARCH_TYPES as readonly string[]).includes(t))
  if (unknown.length > 0 || given.length === 0) {
    throw new ProblemError('validation_failed', `Unknown type: ${unknown.join(', ') || '(none)'}.`, {
      errors: [{ pointer: '/query/types', message: `One or more of ${HUB_SEARCH_TYPES.join(', ')}` }],
    })
  }
  return given as HubSearchType[]
}

function present(orgId: OrgId, hit: SearchHit, terms: readonly string[], score: number): Hit {
  return {
    orgId,
    type: hit.type,
    id: hit.id,
    key: hit.key,
    title: hit.title,
    snippet: snippetOf(hit.body || hit.title || '', terms),
    score,
    ...(hit.parentType && hit.parentId ? { parent: { type: hit.parentType, id: hit.parentId } } : {}),
    updatedAt: hit.updatedAt,
  }
}

const SNIPPET_LENGTH = 160

/** About 160 characters of `text` around the first word that begins with a term, `…` where cut. */
export function snippetOf(text: string, terms: readonly string[]): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  if (flat.length <= SNIPPET_LENGTH) return flat
  const lower = flat.toLowerCase()
  let at = -1
  for (const term of terms) {
    const match = new RegExp(`(^|[^\\p{L}\\p{N}\\p{M}])${escapeRegExp(term)}`, 'u').exec(lower)
    if (match && (at < 0 || match.index < at)) at = match.index + match[1]!.length
  }
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - 40, flat.length - SNIPPET_LENGTH))
  const end = start + SNIPPET_LENGTH
  return `${start > 0 ? '…' : ''}${flat.slice(start, end).trim()}${end < flat.length ? '…' : ''}`
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

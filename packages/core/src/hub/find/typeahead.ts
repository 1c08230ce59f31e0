import type { OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { ProblemError } from '../../kernel/problems.ts'
import { fanOut } from '../fanout.ts'
import { TYPEAHEAD_TYPES, type TypeaheadHit, type TypeaheadType } from '../storage.ts'

export const TYPEAHEAD_LIMIT_MAX = 10
export const TYPEAHEAD_LIMIT_DEFAULT = 5

/** `types` as a comma-separated subset; all when absent. */
function parseTypeaheadTypes(raw: string | undefined): TypeaheadType[] {
  if (raw === undefined) return [...TYPEAHEAD_TYPES]
  const parts = raw.split(',').map((t) => t.trim())
  const wrong = parts.filter((t) => !(TYPEAHEAD_TYPES as readonly string[]).includes(t))
  if (wrong.length > 0) {
    throw new ProblemError('validation_failed', `Unknown type: ${wrong.join(', ')}.`, {
      errors: [{ pointer: '/query/types', message: `One or more of ${TYPEAHEAD_TYPES.join(', ')}` }],
    })
  }
  return [...new Set(parts)] as TypeaheadType[]
}

/** Exact names first, then shorter names (closer to what was typed), then name, workspace, id. */
function closer(q: string) {
  const lower = q.toLowerCase()
  const rank = (h: TypeaheadHit) => ((h.key ?? h.name).toLowerCase() === lower ? 0 : 1)
  return (a: TypeaheadHit & { orgId: string }, b: TypeaheadHit & { orgId: string }) =>
    rank(a) - rank(b) ||
    (a.key ?? a.name).length - (b.key ?? b.name).length ||
    a.name.localeCompare(b.name) ||
    a.orgId.localeCompare(b.orgId) ||
    a.id.localeCompare(b.id)
}

/**
 * Names beginning with `q` in every workspace, for pickers: each workspace answers its first `limit`
 * per type among what the member may view there; the merge keeps the best `limit` per type.
 */
export async function hubTypeahead(
  ctx: OperationContext,
  query: { q: string; types?: string; orgId?: string; limit?: number },
) {
  const types = parseTypeaheadTypes(query.types)
  const limit = query.limit ?? TYPEAHEAD_LIMIT_DEFAULT
  const prefix = query.q.trim()
  const { results, partial } = await fanOut(
    ctx,
    (reader) =>
      reader.actor.kind === 'person' && prefix !== ''
        ? ctx.store.hubReads.typeahead(
            reader.orgId,
            prefix,
            types,
            { memberId: reader.actor.id, scope: reader.scope },
            limit,
          )
        : Promise.resolve([]),
    { only: query.orgId as OrgId | undefined },
  )
  const all = results.flatMap((r) => r.value.map((hit) => ({ orgId: r.orgId, ...hit })))
  const order = closer(prefix)
  const data = types.flatMap((type) =>
    all
      .filter((h) => h.type === type)
      .sort(order)
      .slice(0, limit),
  )
  return { data, partial }
}

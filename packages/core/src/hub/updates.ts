import type { OperationContext } from '../kernel/operation.ts'
import type { UpdateHealth } from '../updates/schemas.ts'
import type { FeedFilter } from '../updates/storage.ts'
import { newestFirstAcrossOrgs } from './newest-first.ts'
import { relatedIn } from './portfolio.ts'
import type { HubRecordType } from './storage.ts'

export interface HubUpdatesQuery {
  types?: HubRecordType[]
  health?: UpdateHealth
  since?: string
  orgId?: string
  cursor?: string
  limit?: number
}

/**
 * Status updates of the projects, programs and initiatives the caller leads, owns, belongs to or
 * follows, newest first: per workspace the org feed (`updates.feed`, with its visibility predicate)
 * narrowed to those subjects, merged by (createdAt desc, orgId, id desc).
 */
export async function hubUpdates(ctx: OperationContext, query: HubUpdatesQuery) {
  const narrow = {
    ...(query.types ? { types: query.types } : {}),
    ...(query.health ? { health: query.health } : {}),
    ...(query.since ? { since: query.since } : {}),
  }
  const scope = ['hub.updates', ctx.principal!.userId, narrow, query.orgId ?? null]
  const page = await newestFirstAcrossOrgs(ctx, { ...query, scope }, async (reader, slice) => {
    const related = await relatedIn(ctx, reader, query.types)
    const filter: FeedFilter = {
      subjectIds: related.map((r) => r.id),
      ...(query.health ? { health: query.health } : {}),
      ...(query.since ? { since: query.since } : {}),
    }
    return ctx.store.updates.feed(reader.orgId, filter, slice, reader.scope)
  })
  return { data: page.rows, nextCursor: page.nextCursor, partial: page.partial }
}

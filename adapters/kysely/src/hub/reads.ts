import type { ActorId, EventId, MemberId, OrgId, StoredEvent, TeamId } from '@workgraph/core'
import type { HubReadRepo } from '@workgraph/core/storage'
import { type Kysely, type SqlBool, sql } from 'kysely'
import { int, iso, json } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'
import { relatedRecords } from './related.ts'
import { searchHits } from './search.ts'
import { typeaheadHits } from './typeahead.ts'

export function hubReadRepo(db: Kysely<Database>, dialect: Dialect): HubReadRepo {
  return {
    search: (orgId, terms, types, scope, page) =>
      searchHits(db, dialect, { orgId, terms, types, scope, page }),
    async activity(orgId, scope, filter, beforeSeq, limit) {
      let query = db.selectFrom('events').selectAll().where('orgId', '=', orgId)
      if (beforeSeq !== null) query = query.where('seq', '<', beforeSeq)
      // The visibility of the streams (kernel events repo): teams in scope or events about the
      // reader; a notification's events are its recipient's alone.
      if (!scope.orgWide) {
        query = query.where((eb) =>
          eb.or([
            inVisibleTeams(eb, 'teamId', scope),
            eb('resourceId', '=', scope.actorId),
            // Events addressed to the reader (their notifications) belong to no team.
            eb('recipientId', '=', scope.actorId),
          ]),
        )
      }
      query = query.where((eb) =>
        eb.or([eb('recipientId', 'is', null), eb('recipientId', '=', scope.actorId)]),
      )
      if (filter.kinds) {
        query =
          filter.kinds.length === 0
            ? query.where(sql<SqlBool>`1 = 0`)
            : query.where('kind', 'in', [...filter.kinds])
      }
      if (filter.actorId) query = query.where('actorId', '=', filter.actorId)
      if (filter.resourceId) query = query.where('resourceId', '=', filter.resourceId)
      const rows = await query.orderBy('seq', 'desc').limit(limit).execute()
      return rows.map(
        (r): StoredEvent => ({
          id: r.id as EventId,
          orgId: r.orgId as OrgId,
          seq: int(r.seq),
          kind: r.kind,
          actorId: r.actorId as MemberId | null,
          resourceType: r.resourceType,
          resourceId: r.resourceId,
          teamId: (r.teamId ?? null) as TeamId | null,
          recipientId: (r.recipientId ?? null) as ActorId | null,
          data: json(r.data),
          createdAt: iso(r.createdAt),
        }),
      )
    },
    related: (orgId, memberId, types, scope, limit) =>
      relatedRecords(db, orgId, memberId, types, scope, limit),
    typeahead: (orgId, prefix, types, viewer, limit) =>
      typeaheadHits(db, orgId, prefix, types, viewer, limit),
  }
}

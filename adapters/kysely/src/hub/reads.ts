import type {
  ActorId,
  EventId,
  HubSearchType,
  MemberId,
  OrgId,
  PageRequest,
  ReadScope,
  StoredEvent,
  TeamId,
} from '@workgraph/core'
import type { HubReadRepo, SearchHit } from '@workgraph/core/storage'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { visibleDocument } from '../documents/visibility.ts'
import { visibleProjectRef } from '../initiatives/initiative-rows.ts'
import { keysetPage } from '../keyset.ts'
import { int, iso, json } from '../normalize.ts'
import type { Database, Dialect } from '../schema.ts'
import { inVisibleTeams, visibleInitiativeRef, visibleTask as visibleTaskRow } from '../scope.ts'
import { ftsQuery, scopedFtsQuery } from '../text.ts'
import { relatedRecords } from './related.ts'
import { typeaheadHits } from './typeahead.ts'

type Eb = ExpressionBuilder<Database, keyof Database>
// The branches are typed loosely: each selects the same columns from a different table.
type AnyQuery = any

/** A task row the reader may view: not deleted, in a visible team. */
function visibleTask(eb: Eb, taskRef: string, orgRef: string, scope: ReadScope): Expression<SqlBool> {
  let q = eb
    .selectFrom('tasks as vt')
    .select('vt.id')
    .whereRef('vt.orgId', '=', orgRef as never)
    .whereRef('vt.id', '=', taskRef as never)
    .where('vt.deletedAt', 'is', null)
  // Its team, or its project when a grant reaches the reader there.
  if (!scope.orgWide) q = q.where((e) => visibleTaskRow(e, 'vt', scope))
  return eb.exists(q)
}

/** A status update's subject (a project or an initiative) is visible. */
function visibleUpdateSubject(eb: Eb, typeRef: string, idRef: string, orgRef: string, scope: ReadScope) {
  return eb.or([
    eb.and([eb(typeRef as never, '=', 'project' as never), visibleProjectRef(eb, idRef, orgRef, scope)]),
    eb.and([
      eb(typeRef as never, '=', 'initiative' as never),
      visibleInitiativeRef(eb, idRef, orgRef, scope),
    ]),
  ])
}

/** A comment's subject is visible: its task, project, milestone's project, or update's subject. */
function visibleCommentSubject(eb: Eb, scope: ReadScope): Expression<SqlBool> {
  return eb.or([
    eb.and([
      eb('comments.subjectType', '=', 'task'),
      visibleTask(eb, 'comments.subjectId', 'comments.orgId', scope),
    ]),
    eb.and([
      eb('comments.subjectType', '=', 'project'),
      visibleProjectRef(eb, 'comments.subjectId', 'comments.orgId', scope),
    ]),
    eb.and([
      eb('comments.subjectType', '=', 'milestone'),
      eb.exists(
        eb
          .selectFrom('milestones as cm')
          .select('cm.id')
          .whereRef('cm.orgId', '=', 'comments.orgId')
          .whereRef('cm.id', '=', 'comments.subjectId')
          .where((e) => visibleProjectRef(e, 'cm.projectId', 'cm.orgId', scope)),
      ),
    ]),
    eb.and([
      eb('comments.subjectType', '=', 'update'),
      eb.exists(
        eb
          .selectFrom('statusUpdates as cu')
          .select('cu.id')
          .whereRef('cu.orgId', '=', 'comments.orgId')
          .whereRef('cu.id', '=', 'comments.subjectId')
          .where('cu.archivedAt', 'is', null)
          .where((e) => visibleUpdateSubject(e as Eb, 'cu.subjectType', 'cu.subjectId', 'cu.orgId', scope)),
      ),
    ]),
  ])
}

/** Per type: its table (as queries and as SQL name it), the columns of a hit, and its visibility. */
const BRANCHES: Record<
  HubSearchType,
  { table: keyof Database; sqlName: string; build: (db: Kysely<Database>, scope: ReadScope) => AnyQuery }
> = {
  task: {
    table: 'tasks',
    sqlName: 'tasks',
    build: (db, scope) => {
      let q = db
        .selectFrom('tasks')
        .innerJoin('teams', (j) =>
          j.onRef('teams.orgId', '=', 'tasks.orgId').onRef('teams.id', '=', 'tasks.teamId'),
        )
        .select([
          sql<string>`'task'`.as('type'),
          'tasks.id as id',
          'tasks.title as title',
          sql<string>`coalesce(tasks.description, '')`.as('body'),
          sql<string>`teams.key || '-' || tasks.number`.as('key'),
          sql<string>`'team'`.as('parentType'),
          'tasks.teamId as parentId',
          'tasks.updatedAt as updatedAt',
        ])
        .where('tasks.deletedAt', 'is', null)
        .where('tasks.archivedAt', 'is', null)
      if (!scope.orgWide) q = q.where((eb) => visibleTaskRow(eb, 'tasks', scope))
      return q
    },
  },
  project: {
    table: 'projects',
    sqlName: 'projects',
    build: (db, scope) =>
      db
        .selectFrom('projects')
        .select([
          sql<string>`'project'`.as('type'),
          'projects.id as id',
          'projects.name as title',
          sql<string>`coalesce(projects.description, '')`.as('body'),
          sql<null>`null`.as('key'),
          sql<null>`null`.as('parentType'),
          sql<null>`null`.as('parentId'),
          'projects.updatedAt as updatedAt',
        ])
        .where('projects.archivedAt', 'is', null)
        .where((eb) => visibleProjectRef(eb, 'projects.id', 'projects.orgId', scope)),
  },
  initiative: {
    table: 'initiatives',
    sqlName: 'initiatives',
    build: (db, scope) =>
      db
        .selectFrom('initiatives')
        .select([
          sql<string>`'initiative'`.as('type'),
          'initiatives.id as id',
          'initiatives.name as title',
          sql<string>`coalesce(initiatives.description, '')`.as('body'),
          sql<null>`null`.as('key'),
          sql<null>`null`.as('parentType'),
          sql<null>`null`.as('parentId'),
          'initiatives.updatedAt as updatedAt',
        ])
        .where('initiatives.archivedAt', 'is', null)
        .where((eb) => visibleInitiativeRef(eb, 'initiatives.id', 'initiatives.orgId', scope)),
  },
  document: {
    table: 'documents',
    sqlName: 'documents',
    build: (db, scope) =>
      db
        .selectFrom('documents')
        .select([
          sql<string>`'document'`.as('type'),
          'documents.id as id',
          'documents.title as title',
          'documents.content as body',
          sql<null>`null`.as('key'),
          'documents.holderType as parentType',
          'documents.holderId as parentId',
          'documents.updatedAt as updatedAt',
        ])
        .where('documents.archivedAt', 'is', null)
        .where((eb) => (scope.orgWide ? sql<SqlBool>`1 = 1` : visibleDocument(eb, scope))),
  },
  comment: {
    table: 'comments',
    sqlName: 'comments',
    build: (db, scope) =>
      db
        .selectFrom('comments')
        .select([
          sql<string>`'comment'`.as('type'),
          'comments.id as id',
          sql<null>`null`.as('title'),
          sql<string>`coalesce(comments.body, '')`.as('body'),
          sql<null>`null`.as('key'),
          'comments.subjectType as parentType',
          'comments.subjectId as parentId',
          'comments.updatedAt as updatedAt',
        ])
        .where('comments.deletedAt', 'is', null)
        .where('comments.body', 'is not', null)
        .where((eb) => visibleCommentSubject(eb as unknown as Eb, scope)),
  },
  update: {
    table: 'statusUpdates',
    sqlName: 'status_updates',
    build: (db, scope) =>
      db
        .selectFrom('statusUpdates')
        .select([
          sql<string>`'update'`.as('type'),
          'statusUpdates.id as id',
          sql<null>`null`.as('title'),
          'statusUpdates.body as body',
          sql<null>`null`.as('key'),
          'statusUpdates.subjectType as parentType',
          'statusUpdates.subjectId as parentId',
          'statusUpdates.updatedAt as updatedAt',
        ])
        .where('statusUpdates.archivedAt', 'is', null)
        .where((eb) =>
          visibleUpdateSubject(
            eb as unknown as Eb,
            'statusUpdates.subjectType',
            'statusUpdates.subjectId',
            'statusUpdates.orgId',
            scope,
          ),
        ),
  },
}

/**
 * The match and rank of one branch: SQLite joins the shared FTS5 index (bm25 negated so that higher
 * is better, the title weighing 10 to the body's 1); Postgres tests the row's `tsvector` and ranks
 * with `ts_rank` (float8, so a cursor's value compares exactly with the column).
 */
function ranked(
  q: AnyQuery,
  dialect: Dialect,
  orgId: OrgId,
  type: HubSearchType,
  sqlName: string,
  terms: readonly string[],
) {
  const t = sql.raw(sqlName)
  if (dialect === 'sqlite') {
    return (
      q
        .innerJoin(sql`search_entries`.as('se'), (j: AnyQuery) =>
          j.on(sql<SqlBool>`se.org_id = ${t}.org_id and se.kind = ${type} and se.record_id = ${t}.id`),
        )
        .innerJoin(sql`search_fts`.as('search_fts'), (j: AnyQuery) =>
          j.on(sql<SqlBool>`search_fts.rowid = se.seq`),
        )
        .where(sql<SqlBool>`search_fts match ${scopedFtsQuery(orgId, type, terms)}`)
        // The scope column weighs nothing: it only narrows the match.
        .select(sql<number>`-bm25(search_fts, 10.0, 1.0, 0.0)`.as('rank'))
    )
  }
  const query = ftsQuery(dialect, terms)
  return q
    .where(sql<SqlBool>`${t}.search @@ to_tsquery('simple', ${query})`)
    .select(sql<number>`ts_rank(${t}.search, to_tsquery('simple', ${query}))::float8`.as('rank'))
}

export function hubReadRepo(db: Kysely<Database>, dialect: Dialect): HubReadRepo {
  return {
    async search(orgId, terms, types, scope, page: PageRequest<'rank'>) {
      if (terms.length === 0 || types.length === 0) return []
      const branches = types.map((type) => {
        const branch = BRANCHES[type]
        const base = branch.build(db, scope).where(`${branch.table}.orgId`, '=', orgId)
        return ranked(base, dialect, orgId, type, branch.sqlName, terms)
      })
      const union = branches.slice(1).reduce((all: AnyQuery, b: AnyQuery) => all.unionAll(b), branches[0])
      const rows = (await keysetPage(db.selectFrom(union.as('hits')).selectAll() as AnyQuery, page, {
        sort: 'rank',
        id: 'id',
      }).execute()) as Array<Record<string, unknown>>
      return rows.map(
        (r): SearchHit => ({
          type: r.type as HubSearchType,
          id: r.id as string,
          title: (r.title as string | null) ?? null,
          body: (r.body as string | null) ?? '',
          key: (r.key as string | null) ?? null,
          parentType: (r.parentType as string | null) ?? null,
          parentId: (r.parentId as string | null) ?? null,
          updatedAt: iso(r.updatedAt as string),
          rank: Number(r.rank),
        }),
      )
    },
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

import type { HubSearchType, ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely'
import { visibleDocument } from '../documents/visibility.ts'
import { visibleProjectRef } from '../initiatives/initiative-rows.ts'
import type { Database } from '../schema.ts'
import { visibleInitiativeRef, visibleTask as visibleTaskRow } from '../scope.ts'

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
export const BRANCHES: Record<
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

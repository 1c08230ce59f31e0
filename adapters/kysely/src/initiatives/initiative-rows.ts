import type { Initiative, ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleProjectRef as visibleProjectOf } from '../scope.ts'

/** How an initiative row is read (its mapping and latest update) and who may see initiatives and their projects. */

export type Row = { [K in keyof Database['initiatives']]: unknown } & {
  health: unknown
  lastUpdateAt: unknown
}

export function toInitiative(r: Row, labelIds: Initiative['labelIds']): Initiative {
  return {
    id: r.id as Initiative['id'],
    orgId: r.orgId as Initiative['orgId'],
    name: r.name as string,
    description: r.description as string | null,
    ownerId: r.ownerId as Initiative['ownerId'],
    status: r.status as Initiative['status'],
    labelIds,
    targetDate: r.targetDate as string | null,
    parentId: r.parentId as Initiative['parentId'],
    health: (r.health ?? null) as Initiative['health'],
    lastUpdateAt: isoOrNull((r.lastUpdateAt ?? null) as string | null),
    creatorId: r.creatorId as string,
    createdAt: iso(r.createdAt as string),
    updatedAt: iso(r.updatedAt as string),
    startedAt: isoOrNull(r.startedAt as string | null),
    completedAt: isoOrNull(r.completedAt as string | null),
    canceledAt: isoOrNull(r.canceledAt as string | null),
    archivedAt: isoOrNull(r.archivedAt as string | null),
  }
}

/** The outer query's builder, for subqueries on the base tables (its own aliases are referenced by name). */
export const asBase = <DB extends Database, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>) =>
  eb as unknown as ExpressionBuilder<Database, keyof Database>

/** The latest unarchived status update of a subject, as the projects repo reads a project's. */
export function latestUpdate<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  subjectType: string,
  idRef: string,
  orgRef: string,
) {
  return asBase(outer)
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', orgRef as never)
    .where('su.subjectType', '=', subjectType)
    .whereRef('su.subjectId', '=', idRef as never)
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

/** The reader may view the project: one of its teams is visible, or a grant on it reaches them (the projects repo's predicate). */
export function visibleProjectRef<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  projectRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  return visibleProjectOf(outer, projectRef, orgRef, scope)
}

/**
 * The permission predicate of an initiative read: org-wide readers see all; others see an initiative
 * a grant reaches (on it or an initiative above it: `scope.initiativeIds`), or one that, or one of
 * whose sub-initiatives (the closure table), links a project they can view (through its teams or a
 * grant on it or on what holds it). It is part of the query, so pages are exact.
 */
export function visibleInitiativeRef<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  idRef: string,
  orgRef: string,
  scope: ReadScope,
): Expression<SqlBool> {
  if (scope.orgWide) return sql<SqlBool>`1 = 1`
  const eb = asBase(outer)
  const throughProjects = eb.exists(
    eb
      .selectFrom('initiativeClosure as vc')
      .innerJoin('initiativeProjects as vip', (j) =>
        j.onRef('vip.orgId', '=', 'vc.orgId').onRef('vip.initiativeId', '=', 'vc.descendantId'),
      )
      .select('vc.descendantId')
      .whereRef('vc.orgId', '=', orgRef as never)
      .whereRef('vc.ancestorId', '=', idRef as never)
      .where((e) => visibleProjectOf(e, 'vip.projectId', 'vip.orgId', scope)),
  )
  if (scope.initiativeIds.length === 0) return throughProjects
  return eb.or([eb(idRef as never, 'in', [...scope.initiativeIds] as never), throughProjects])
}

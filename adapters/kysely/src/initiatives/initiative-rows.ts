import type { Initiative, ReadScope } from '@workgraph/core'
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely'
import { iso, isoOrNull } from '../normalize.ts'
import type { Database } from '../schema.ts'
import { visibleProjectRef as visibleProjectOf } from '../scope.ts'

/** How an initiative row is read, and who may see the projects linked to initiatives. */

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

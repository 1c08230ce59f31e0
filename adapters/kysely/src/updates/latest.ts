import type { ExpressionBuilder } from 'kysely'
import type { Database } from '../schema.ts'

/** The latest unarchived status update of a subject, for the rows of the groups above (initiatives, programs' cadence); projects read their own. */
export function latestUpdate<DB extends Database, TB extends keyof DB>(
  outer: ExpressionBuilder<DB, TB>,
  subjectType: string,
  idRef: string,
  orgRef: string,
) {
  return (outer as unknown as ExpressionBuilder<Database, keyof Database>)
    .selectFrom('statusUpdates as su')
    .whereRef('su.orgId', '=', orgRef as never)
    .where('su.subjectType', '=', subjectType)
    .whereRef('su.subjectId', '=', idRef as never)
    .where('su.archivedAt', 'is', null)
    .orderBy('su.createdAt', 'desc')
    .orderBy('su.id', 'desc')
    .limit(1)
}

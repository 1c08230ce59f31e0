import type { DocumentHolderType, ReadScope } from '@workgraph/core'
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'
import type { Database } from '../schema.ts'
import { inVisibleTeams } from '../scope.ts'

type Eb = ExpressionBuilder<Database, 'documents'>

/**
 * Per holder type, when the reader may view a document's holder: a team in the read scope, a
 * project one of whose teams is. A new holder type (programs, initiatives) adds its predicate here.
 */
const HOLDER_VISIBLE: Record<DocumentHolderType, (eb: Eb, scope: ReadScope) => Expression<SqlBool>> = {
  team: (eb, scope) => inVisibleTeams(eb, 'documents.holderId', scope),
  project: (eb, scope) =>
    eb.exists(
      eb
        .selectFrom('projectTeams as pt')
        .select('pt.teamId')
        .whereRef('pt.orgId', '=', 'documents.orgId')
        .whereRef('pt.projectId', '=', 'documents.holderId')
        .where((e) => inVisibleTeams(e, 'pt.teamId', scope)),
    ),
}

/** The permission predicate of a document read, part of the query so pages are exact. */
export function visibleDocument(eb: Eb, scope: ReadScope): Expression<SqlBool> {
  return eb.or(
    Object.entries(HOLDER_VISIBLE).map(([type, visible]) =>
      eb.and([eb('documents.holderType', '=', type), visible(eb, scope)]),
    ),
  )
}

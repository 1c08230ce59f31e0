import type { DocumentHolderType, ReadScope } from '@workgraph/core'
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely'
import type { Database } from '../schema.ts'
import { inVisibleTeams, visibleProjectRef } from '../scope.ts'

type Eb = ExpressionBuilder<Database, 'documents'>

/**
 * Per holder type, when the reader may view a document's holder: a team in the read scope, a
 * project one of whose teams is, or on which a grant reaches them. A new holder type (programs,
 * initiatives) adds its predicate here.
 */
const HOLDER_VISIBLE: Record<DocumentHolderType, (eb: Eb, scope: ReadScope) => Expression<SqlBool>> = {
  team: (eb, scope) => inVisibleTeams(eb, 'documents.holderId', scope),
  project: (eb, scope) => visibleProjectRef(eb, 'documents.holderId', 'documents.orgId', scope),
}

/** The permission predicate of a document read, part of the query so pages are exact. */
export function visibleDocument(eb: Eb, scope: ReadScope): Expression<SqlBool> {
  return eb.or(
    Object.entries(HOLDER_VISIBLE).map(([type, visible]) =>
      eb.and([eb('documents.holderType', '=', type), visible(eb, scope)]),
    ),
  )
}

import type { AnyOperation } from '../kernel/operation.ts'
import {
  hubActivityOperation,
  hubResolveOperation,
  hubSearchOperation,
  hubTypeaheadOperation,
} from './find/operations.ts'
import { hubInboxBatchOperation, hubInboxCountsOperation, hubInboxOperation } from './inbox/operations.ts'
import { hubTasksQueryOperation } from './tasks/query.ts'
import {
  hubAgendaOperation,
  hubApprovalsOperation,
  hubDigestOperation,
  hubPortfolioOperation,
  hubTasksOperation,
  hubTodayOperation,
  hubUpdatesOperation,
} from './work-operations.ts'

/** The hub's operations, in the order of the reference. */
export const hubOperations: AnyOperation[] = [
  hubSearchOperation,
  hubInboxOperation,
  hubActivityOperation,
  hubResolveOperation,
  hubInboxCountsOperation,
  hubTasksOperation,
  hubTasksQueryOperation,
  hubApprovalsOperation,
  hubTodayOperation,
  hubPortfolioOperation,
  hubUpdatesOperation,
  hubAgendaOperation,
  hubInboxBatchOperation,
  hubTypeaheadOperation,
  hubDigestOperation,
]

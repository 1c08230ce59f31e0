import type { InitiativeId, OrgId } from '../../kernel/ids.ts'
import type { PageRequest } from '../../kernel/pagination.ts'
import type { InitiativeMetricRecord, InitiativeMetricValue } from './schemas.ts'

/** The metric of an initiative (at most one) and its check-ins. */
export interface InitiativeMetricRepo {
  get(orgId: OrgId, id: InitiativeId): Promise<InitiativeMetricRecord | null>
  /** Inserts or replaces the initiative's metric. */
  put(orgId: OrgId, metric: InitiativeMetricRecord): Promise<void>
  /** Deletes the metric and its values; false when there was none. */
  delete(orgId: OrgId, id: InitiativeId): Promise<boolean>
  insertValue(orgId: OrgId, value: InitiativeMetricValue): Promise<void>
  /** Newest first (by `createdAt`, then id). */
  values(orgId: OrgId, id: InitiativeId, page: PageRequest<'createdAt'>): Promise<InitiativeMetricValue[]>
}

declare module '../../kernel/storage.ts' {
  interface Store {
    initiativeMetrics: InitiativeMetricRepo
  }
}

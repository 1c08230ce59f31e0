import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Purge } from '../purge-kinds.ts'
import type { Database } from '../schema.ts'
import { initiativeRepo } from './initiatives.ts'
import { initiativeMetricRepo } from './metric/metrics.ts'

/** Initiatives, their hierarchy, links, members, history and metric. */
export const initiativesStore = (db: Kysely<Database>, purge: Purge) =>
  ({
    initiatives: initiativeRepo(db, purge),
    initiativeMetrics: initiativeMetricRepo(db),
  }) satisfies Partial<Store>

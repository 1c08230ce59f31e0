import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { labelRepo } from './labels.ts'

/** Org and team labels. */
export const labelsStore = (db: Kysely<Database>) =>
  ({
    labels: labelRepo(db),
  }) satisfies Partial<Store>

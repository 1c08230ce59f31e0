import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { customFieldRepo } from './definitions.ts'
import { customFieldValueRepo } from './values.ts'

/** Custom field definitions and their values. */
export const customFieldsStore = (db: Kysely<Database>) =>
  ({
    customFields: customFieldRepo(db),
    customFieldValues: customFieldValueRepo(db),
  }) satisfies Partial<Store>

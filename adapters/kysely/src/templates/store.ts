import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { recurrenceRepo } from './recurrences.ts'
import { reminderRepo } from './reminders.ts'
import { templateRepo } from './templates.ts'

/** Templates, recurring work and its occurrences, task reminders. */
export const templatesStore = (db: Kysely<Database>) =>
  ({
    templates: templateRepo(db),
    recurrences: recurrenceRepo(db),
    reminders: reminderRepo(db),
  }) satisfies Partial<Store>

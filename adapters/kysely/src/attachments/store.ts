import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database } from '../schema.ts'
import { attachmentRepo } from './attachments.ts'

/** Attachment metadata. */
export const attachmentsStore = (db: Kysely<Database>) =>
  ({
    attachments: attachmentRepo(db),
  }) satisfies Partial<Store>

import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { mailRepo } from './mail.ts'

/** Mail delivery of notifications: positions, the outbox and digests. */
export const mailStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({ mail: mailRepo(db, dialect) }) satisfies Partial<Store>

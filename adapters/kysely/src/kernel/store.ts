import type { Store } from '@workgraph/core/storage'
import type { Kysely } from 'kysely'
import type { Database, Dialect } from '../schema.ts'
import { eventRepo } from './events.ts'
import { idempotencyRepo, secretRepo } from './idempotency.ts'
import { lockRepo } from './locks.ts'
import { protocolSessionRepo } from './protocol-sessions.ts'

/** The kernel's part of a store: locks, the event log, idempotency records, shared secrets and protocol sessions. */
export const kernelStore = (db: Kysely<Database>, dialect: Dialect) =>
  ({
    locks: lockRepo(db, dialect),
    events: eventRepo(db, dialect),
    idempotency: idempotencyRepo(db),
    secrets: secretRepo(db),
    protocolSessions: protocolSessionRepo(db),
  }) satisfies Partial<Store>

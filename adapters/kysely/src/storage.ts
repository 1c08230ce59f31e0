import { ProblemError } from '@workgraph/core'
import type { Storage, Store } from '@workgraph/core/storage'
import { type Kysely, sql } from 'kysely'
import { accessStore } from './access/store.ts'
import { adminStore } from './admin/store.ts'
import { agentsStore } from './agents/store.ts'
import { attachmentsStore } from './attachments/store.ts'
import { commentsStore } from './comments/store.ts'
import { type ConnectOptions, connect } from './connect.ts'
import { connectorsStore } from './connectors/store.ts'
import { cyclesStore } from './cycles/store.ts'
import { documentsStore } from './documents/store.ts'
import { customFieldsStore } from './fields/store.ts'
import { hubStore } from './hub/store.ts'
import { initiativesStore } from './initiatives/store.ts'
import { insightsStore } from './insights/store.ts'
import { kernelStore } from './kernel/store.ts'
import { labelsStore } from './labels/store.ts'
import { linksStore } from './links/store.ts'
import { mailStore } from './mail/store.ts'
import { meStore } from './me/store.ts'
import { migrateToLatest } from './migrations/index.ts'
import { notificationsStore } from './notifications/store.ts'
import { oauthStore } from './oauth/store.ts'
import { orgsStore } from './orgs/store.ts'
import { programsStore } from './programs/store.ts'
import { projectsStore } from './projects/store.ts'
import { purgeOn } from './purge.ts'
import type { Purge } from './purge-kinds.ts'
import { rulesStore } from './rules/store.ts'
import type { Database, Dialect } from './schema.ts'
import { tasksStore } from './tasks/store.ts'
import { teamsStore } from './teams/store.ts'
import { templatesStore } from './templates/store.ts'
import { timeStore } from './time/store.ts'
import { transfersStore } from './transfers/store.ts'
import { triageStore } from './triage/store.ts'
import { updatesStore } from './updates/store.ts'
import { usersStore } from './users/store.ts'
import { viewsStore } from './views/store.ts'

export interface KyselyStorage extends Storage {
  readonly db: Kysely<Database>
}

/** What a group's part of a store is built on: the connection or transaction, the dialect, the delete cascade. */
interface On {
  db: Kysely<Database>
  dialect: Dialect
  purge: Purge
}

/** Every group's part of a store, in layering order: one line per group. */
const GROUPS = [
  ({ db, dialect }) => kernelStore(db, dialect),
  ({ db }) => usersStore(db),
  ({ db }) => oauthStore(db),
  ({ db }) => orgsStore(db),
  ({ db }) => teamsStore(db),
  ({ db, dialect }) => accessStore(db, dialect),
  ({ db }) => adminStore(db),
  ({ db }) => transfersStore(db),
  ({ db, dialect }) => insightsStore(db, dialect),
  ({ db }) => labelsStore(db),
  ({ db, dialect, purge }) => tasksStore(db, dialect, purge),
  ({ db, purge }) => cyclesStore(db, purge),
  ({ db }) => triageStore(db),
  ({ db, purge }) => projectsStore(db, purge),
  ({ db, purge }) => updatesStore(db, purge),
  ({ db }) => linksStore(db),
  ({ db, purge }) => initiativesStore(db, purge),
  ({ db, dialect, purge }) => documentsStore(db, dialect, purge),
  ({ db }) => customFieldsStore(db),
  ({ db }) => templatesStore(db),
  ({ db }) => timeStore(db),
  ({ db, purge }) => programsStore(db, purge),
  ({ db }) => commentsStore(db),
  ({ db }) => attachmentsStore(db),
  ({ db }) => agentsStore(db),
  ({ db }) => connectorsStore(db),
  ({ db, dialect }) => notificationsStore(db, dialect),
  ({ db }) => meStore(db),
  ({ db, dialect }) => mailStore(db, dialect),
  ({ db }) => viewsStore(db),
  ({ db, dialect }) => rulesStore(db, dialect),
  ({ db, dialect }) => hubStore(db, dialect),
] as const satisfies readonly ((on: On) => object)[]

// A missing repository fails to compile: the parts together must make a whole Store.
type Whole<G> = G extends readonly [infer First extends (on: On) => object, ...infer Rest]
  ? ReturnType<First> & Whole<Rest>
  : unknown
const complete: Whole<typeof GROUPS> extends Store ? true : never = true

const ON = Symbol('built on')
const BUILT = Symbol('parts built')
interface LazyStore {
  [ON]: On
  [BUILT]: (Record<string, unknown> | undefined)[]
}
let descriptors: PropertyDescriptorMap | undefined

/**
 * The store on `db` (a transaction, or the root connection). Each transaction gets one, and building
 * every group's repositories for it (some hundred objects of closures) cost more CPU than a create's
 * statements on SQLite. Here a group's part is built when the request first uses one of its
 * repositories and kept for the rest of the transaction. The repositories are the store's own
 * enumerable properties, so the store still behaves as a plain object: spreading it (`{ ...store }`,
 * as a wrapper does) reads every one, and one assigned (a test's stand-in, an embedder's decorator)
 * stays as assigned.
 */
function storeOn(db: Kysely<Database>, dialect: Dialect): Store {
  // Deletes cascade through every group's part, on the same connection (the transaction).
  const on: On = { db, dialect, purge: purgeOn(db) }
  const store: LazyStore = { [ON]: on, [BUILT]: [] }
  Object.defineProperties(store, descriptors ?? repositoryDescriptors(on))
  return store as unknown as Store
}

/** One accessor per repository, building its group's part; made once, naming the repositories of `on`'s parts. */
function repositoryDescriptors(on: On): PropertyDescriptorMap {
  const map: PropertyDescriptorMap = {}
  GROUPS.forEach((group, i) => {
    for (const name of Object.keys(group(on)))
      map[name] = {
        enumerable: true,
        configurable: true,
        get(this: LazyStore) {
          this[BUILT][i] ??= GROUPS[i]!(this[ON]) as Record<string, unknown>
          return this[BUILT][i][name]
        },
        set(this: LazyStore, value: unknown) {
          Object.defineProperty(this, name, { value, writable: true, enumerable: true, configurable: true })
        },
      }
  })
  if (!complete) throw new Error('unreachable')
  descriptors = map
  return map
}

/** The storage interface over an open Kysely instance; the dialect is explicit, never guessed. */
export function createKyselyStorage(options: {
  db: Kysely<Database>
  dialect: Dialect
  onClose?: () => Promise<void>
}): KyselyStorage {
  const { db, dialect } = options
  const root = storeOn(db, dialect)
  return {
    db,
    dialect,
    async transaction(fn) {
      for (let attempt = 1; ; attempt++) {
        try {
          return await db.transaction().execute((trx) => fn(storeOn(trx, dialect)))
        } catch (error) {
          // Postgres rolled the whole transaction back to break a deadlock: nothing of it stands,
          // so running it again is safe, after a short random pause that lets the other one finish.
          if (attempt < RETRIES && isRetryable(error)) {
            await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * attempt))
            continue
          }
          throw translate(error)
        }
      }
    },
    async read(fn) {
      try {
        return await fn(root)
      } catch (error) {
        throw translate(error)
      }
    },
    async ping() {
      try {
        await sql`select 1`.execute(db)
      } catch (error) {
        throw translate(error)
      }
    },
    async close() {
      await db.destroy()
      await options.onClose?.()
    },
  }
}

/** Connects, migrates to the latest schema, and returns the storage. */
export async function openStorage(options: ConnectOptions): Promise<KyselyStorage> {
  const { db, dialect, pool } = await connect(options)
  await migrateToLatest(db, dialect, {
    ...(dialect === 'postgres' && options.schema ? { schema: options.schema } : {}),
    ...(pool ? { pool } : {}),
  })
  return createKyselyStorage({ db, dialect })
}

/**
 * Driver errors a client can act on. A unique violation that a service's own check did not catch
 * is a lost race: a 409, never a 500. A database that cannot be reached (down, restarting, out of
 * connections, or an SQLite file locked past the busy timeout) is a 503 the client retries.
 */
function translate(error: unknown): unknown {
  const code = (error as { code?: string } | null)?.code
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    return new ProblemError('conflict', 'A concurrent request changed the same record; retry.')
  }
  if (isUnavailable(error, code))
    return new ProblemError(
      'service_unavailable',
      'The database could not be reached. Retry shortly; a POST retried with the same Idempotency-Key is never applied twice.',
    )
  return error
}

/** Attempts at a transaction the database aborted as a deadlock victim or a serialization failure. */
const RETRIES = 4

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code
  return code === '40P01' || code === '40001'
}

const UNAVAILABLE_CODES = new Set([
  // node:net
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  // Postgres: connection exceptions (08…), shutting down or starting up (57P0…), too many connections
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  // PgBouncer's own refusals (pool full past query_wait_timeout, server login failing) arrive as 08P01.
  '08P01',
  '57P01',
  '57P02',
  '57P03',
  '53300',
  'SQLITE_BUSY',
])

function isUnavailable(error: unknown, code: string | undefined): boolean {
  if (code && UNAVAILABLE_CODES.has(code)) return true
  // pg reports a lost or never-made connection by message only.
  const message = error instanceof Error ? error.message : ''
  return /Connection terminated|Connection ended unexpectedly|timeout exceeded when trying to connect|Client has encountered a connection error|not queryable/i.test(
    message,
  )
}

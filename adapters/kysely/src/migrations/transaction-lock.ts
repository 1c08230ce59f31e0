import {
  CompiledQuery,
  type DatabaseConnection,
  type DialectAdapter,
  type Driver,
  Kysely,
  type KyselyPlugin,
  PostgresAdapter,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type TransactionSettings,
} from 'kysely'

/**
 * Kysely's own key for the migration lock: session and transaction advisory locks on one key
 * exclude each other, so an instance of an earlier release migrating at the same moment (on
 * Kysely's session lock) waits for this one, and the other way round.
 */
const MIGRATION_LOCK = 3_853_314_791_062_309_107n

/**
 * Kysely's Postgres migrator holds a session advisory lock around the migration transaction
 * (`pg_advisory_lock` … `pg_advisory_unlock`, each its own statement). Behind a pooler in
 * transaction mode (PgBouncer's `pool_mode = transaction`) the two statements can reach different
 * server connections: the unlock misses, and the lock stays on a pooled connection for good, so the
 * next instance to migrate waits an hour. Here the lock is taken inside the migration transaction
 * (`pg_advisory_xact_lock`, as its first statement) and ends with it: one instance migrates, the
 * others wait on the lock, then find nothing left to do, through a pooler or not.
 */
class TransactionLockAdapter extends PostgresAdapter {
  override async acquireMigrationLock(): Promise<void> {}
  override async releaseMigrationLock(): Promise<void> {}
}

class TransactionLockDriver extends PostgresDriver {
  override async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings,
  ): Promise<void> {
    await super.beginTransaction(connection, settings)
    await connection.executeQuery(CompiledQuery.raw(`select pg_advisory_xact_lock(${MIGRATION_LOCK})`))
  }
}

class MigrationDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig
  constructor(config: PostgresDialectConfig) {
    super(config)
    this.#config = config
  }
  override createAdapter(): DialectAdapter {
    return new TransactionLockAdapter()
  }
  override createDriver(): Driver {
    return new TransactionLockDriver(this.#config)
  }
}

/**
 * A Kysely over `pool` for the migrator only: its one transaction begins with the migration lock.
 * Never destroyed (that would end the shared pool); it holds nothing of its own.
 */
export function migratingKysely(pool: PostgresDialectConfig['pool'], plugins: KyselyPlugin[]): Kysely<any> {
  return new Kysely<any>({ dialect: new MigrationDialect({ pool }), plugins })
}

export type { BackupResult } from './backup.ts'
export { backupSqlite, restoreSqlite } from './backup.ts'
export type { Connection, ConnectOptions } from './connect.ts'
export { connect, isPostgresUrl } from './connect.ts'
export { explainDatabaseError, MigrationFailedError, NewerSchemaError } from './database-errors.ts'
export type { DatabaseTarget } from './database-url.ts'
export { checkSqliteDirectory, DatabaseUrlError, maskUrl, parseDatabaseUrl } from './database-url.ts'
export type { InstanceRecord } from './instance-file.ts'
export {
  claimInstanceFile,
  FileInUseError,
  instanceFileOf,
  liveServerOn,
  readLiveInstance,
} from './instance-file.ts'
export { MIGRATION_NAMES, migrateToLatest } from './migrations/index.ts'
export type { PostgresHubOptions } from './postgres-hub.ts'
export { createPostgresEventHub } from './postgres-hub.ts'
export type { Database, Dialect } from './schema.ts'
export { DISTRIBUTION_COLUMN, REFERENCE_TABLES } from './sharding.ts'
export type { KyselyStorage } from './storage.ts'
export { createKyselyStorage, openStorage } from './storage.ts'
export { registerWorkspaceWords } from './workspace-words.ts'

import { type Kysely, type Migration, type MigrationResultSet, Migrator } from 'kysely'
import type pg from 'pg'
import { MigrationFailedError, NewerSchemaError } from '../database-errors.ts'
import type { Dialect } from '../schema.ts'
import * as m0001 from './0001_initial.ts'
import * as m0002 from './0002_oauth.ts'
import * as m0003 from './0003_permissions.ts'
import * as m0004 from './0004_event_visibility.ts'
import * as m0005 from './0005_event_retention.ts'
import * as m0006 from './0006_task_depth.ts'
import * as m0007 from './0007_labels_comments.ts'
import * as m0008 from './0008_cycles.ts'
import * as m0009 from './0009_revoked_access_tokens.ts'
import * as m0010 from './0010_projects.ts'
import * as m0011 from './0011_connectors.ts'
import * as m0012 from './0012_project_updates.ts'
import * as m0013 from './0013_protocol_sessions.ts'
import * as m0014 from './0014_linked_items_on_projects.ts'
import * as m0015 from './0015_project_relations.ts'
import * as m0016 from './0016_comment_subjects.ts'
import * as m0019 from './0019_initiatives.ts'
import * as m0020 from './0020_notifications.ts'
import * as m0021 from './0021_me.ts'
import * as m0022 from './0022_documents.ts'
import * as m0023 from './0023_programs.ts'
import * as m0024 from './0024_project_grants.ts'
import * as m0025 from './0025_search.ts'
import * as m0027 from './0027_daily_plan.ts'
import * as m0029 from './0029_read_indexes.ts'
import * as m0030 from './0030_dependency_lookup.ts'
import * as m0031 from './0031_templates.ts'
import * as m0033 from './0033_custom_fields.ts'
import * as m0035 from './0035_admin.ts'
import * as m0037 from './0037_account_tokens.ts'
import * as m0043 from './0043_initiative_programs.ts'
import * as m0044 from './0044_document_locks_view_preferences.ts'
import * as m0045 from './0045_transfers.ts'
import * as m0046 from './0046_triage.ts'
import * as m0047 from './0047_time_tracking.ts'
import * as m0049 from './0049_follows_mutes.ts'
import * as m0050 from './0050_approval_policies.ts'
import * as m0051 from './0051_attachments.ts'
import * as m0052 from './0052_container_links_labels.ts'
import * as m0053 from './0053_away_and_declined_invitations.ts'
import * as m0055 from './0055_cycle_archive_project_conversion.ts'
import * as m0056 from './0056_update_cadence_metrics.ts'
import * as m0057 from './0057_connector_settings_record_properties.ts'
import * as m0060 from './0060_tasks_project_updated.ts'
import * as m0061 from './0061_tasks_project_covering.ts'
import * as m0062 from './0062_tasks_project_statistics.ts'
import * as m0063 from './0063_task_links_into_resource_links.ts'
import * as m0064 from './0064_keys_carry_org.ts'
import * as m0066 from './0066_task_ranks.ts'
import * as m0067 from './0067_mail_delivery.ts'
import * as m0068 from './0068_automation_rules.ts'
import * as m0069 from './0069_tool_imports.ts'
import * as m0071 from './0071_rule_triggers_system_comments.ts'
import * as m0072 from './0072_sqlite_write_statements.ts'
import * as m0073 from './0073_tasks_assignee_due.ts'
import * as m0074 from './0074_postgres_fresh_reads.ts'
import * as m0075 from './0075_sqlite_partial_task_indexes.ts'
import * as m0076 from './0076_search_workspace_words.ts'
import { applySqliteBaseline } from './baseline.ts'
import { SQLITE_BASELINE } from './sqlite-baseline.ts'
import { migratingKysely } from './transaction-lock.ts'

interface DialectMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>
}

/** Every migration, in order. Names never change once released. */
const MIGRATIONS: Record<string, DialectMigration> = {
  '0001_initial': m0001,
  '0002_oauth': m0002,
  '0003_permissions': m0003,
  '0004_event_visibility': m0004,
  '0005_event_retention': m0005,
  '0006_task_depth': m0006,
  '0007_labels_comments': m0007,
  '0008_cycles': m0008,
  '0009_revoked_access_tokens': m0009,
  '0010_projects': m0010,
  '0011_connectors': m0011,
  '0012_project_updates': m0012,
  '0013_protocol_sessions': m0013,
  '0014_linked_items_on_projects': m0014,
  '0015_project_relations': m0015,
  '0016_comment_subjects': m0016,
  '0019_initiatives': m0019,
  '0020_notifications': m0020,
  '0021_me': m0021,
  '0022_documents': m0022,
  '0023_programs': m0023,
  '0024_project_grants': m0024,
  '0025_search': m0025,
  '0027_daily_plan': m0027,
  '0029_read_indexes': m0029,
  '0030_dependency_lookup': m0030,
  '0031_templates': m0031,
  '0033_custom_fields': m0033,
  '0035_admin': m0035,
  '0037_account_tokens': m0037,
  '0043_initiative_programs': m0043,
  '0044_document_locks_view_preferences': m0044,
  '0045_transfers': m0045,
  '0046_triage': m0046,
  '0047_time_tracking': m0047,
  '0049_follows_mutes': m0049,
  '0050_approval_policies': m0050,
  '0051_attachments': m0051,
  '0052_container_links_labels': m0052,
  '0053_away_and_declined_invitations': m0053,
  '0055_cycle_archive_project_conversion': m0055,
  '0056_update_cadence_metrics': m0056,
  '0057_connector_settings_record_properties': m0057,
  '0060_tasks_project_updated': m0060,
  '0061_tasks_project_covering': m0061,
  '0062_tasks_project_statistics': m0062,
  '0063_task_links_into_resource_links': m0063,
  '0064_keys_carry_org': m0064,
  '0066_task_ranks': m0066,
  '0067_mail_delivery': m0067,
  '0068_automation_rules': m0068,
  '0069_tool_imports': m0069,
  '0071_rule_triggers_system_comments': m0071,
  '0072_sqlite_write_statements': m0072,
  '0073_tasks_assignee_due': m0073,
  '0074_postgres_fresh_reads': m0074,
  '0075_sqlite_partial_task_indexes': m0075,
  '0076_search_workspace_words': m0076,
}

/** Every migration this version knows, in the order they apply. */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS).sort()

/** Kysely's words for a database that holds migrations this version does not have. */
function newerSchema(error: unknown): NewerSchemaError | undefined {
  const missing = /previously executed migration (\S+) is missing/.exec(String((error as Error)?.message))
  return missing ? new NewerSchemaError([missing[1]!]) : undefined
}

/**
 * Whether the migration log holds exactly the migrations this version knows. False when it holds
 * fewer or others (the migrator applies them, or refuses a newer schema) or when there is no log yet.
 */
async function holdsEveryMigration(
  db: Kysely<{ kysely_migration: { name: string } }>,
  schema: string | undefined,
): Promise<boolean> {
  let applied: string[]
  try {
    const rows = await (schema ? db.withSchema(schema) : db)
      .selectFrom('kysely_migration')
      .select('name')
      .execute()
    applied = rows.map((row) => row.name).sort()
  } catch {
    return false
  }
  return applied.length === MIGRATION_NAMES.length && applied.every((name, i) => name === MIGRATION_NAMES[i])
}

/**
 * Brings the database to the latest schema; safe to run on every start and from several instances.
 * The pending migrations run in one transaction on both databases: a failure (`MigrationFailedError`,
 * naming the migration) leaves the schema as it was. A fresh SQLite database is first built from the
 * baseline (sqlite-baseline.ts, written by scripts/write-baseline.ts) unless `baseline` is false. Given the Postgres `pool`, the instances
 * serialise on a lock held by that transaction, which works through a pooler in transaction mode
 * too (transaction-lock.ts); without it, on Kysely's session lock, which needs a direct connection.
 */
export async function migrateToLatest(
  db: Kysely<any>,
  dialect: Dialect,
  options: { schema?: string; pool?: pg.Pool; baseline?: boolean } = {},
): Promise<MigrationResultSet> {
  // Every start after the first finds nothing to do: one read says so, where the migrator would
  // introspect every table of the schema (twice) before reading its log.
  if (await holdsEveryMigration(db, options.schema)) return { results: [] }
  // A fresh SQLite database starts from the baseline schema: one transaction, not every migration.
  const fromBaseline =
    dialect === 'sqlite' && options.baseline !== false
      ? await applySqliteBaseline(db, SQLITE_BASELINE, MIGRATION_NAMES)
      : []
  // The migrations the baseline stood for were applied too, in its one transaction.
  const baselined = fromBaseline.map((migrationName) => ({
    migrationName,
    direction: 'Up' as const,
    status: 'Success' as const,
  }))
  // A baseline through the latest migration leaves the migrator nothing to do but introspect every
  // table (twice) to find that out.
  if (fromBaseline.length === MIGRATION_NAMES.length) return { results: baselined }
  const migrations: Record<string, Migration> = Object.fromEntries(
    Object.entries(MIGRATIONS).map(([name, m]) => [name, { up: (db: Kysely<any>) => m.up(db, dialect) }]),
  )
  // The bookkeeping tables live in the working schema, so schemas on one database stay independent.
  const migrator = new Migrator({
    db:
      dialect === 'postgres' && options.pool
        ? migratingKysely(options.pool, [...db.getExecutor().plugins])
        : db,
    provider: { getMigrations: async () => migrations },
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  })
  let result: MigrationResultSet
  try {
    result = await migrator.migrateToLatest()
  } catch (error) {
    throw newerSchema(error) ?? error
  }
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')
    throw (
      newerSchema(result.error) ??
      (failed ? new MigrationFailedError(failed.migrationName, result.error) : result.error)
    )
  }
  return { ...result, results: [...baselined, ...(result.results ?? [])] }
}

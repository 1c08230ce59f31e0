/**
 * How the schema shards by workspace (docs/scale-out.md). Every table is one of two kinds:
 *
 * - a tenant table, distributed by `org_id` (Citus `create_distributed_table(…, 'org_id')`, all
 *   colocated): its primary key and unique constraints include `org_id`, and a foreign key to
 *   another tenant table carries `org_id` on both sides, so every statement of one workspace runs on
 *   one shard;
 * - a reference table, named below: what every workspace shares (people, sign-in, OAuth, the list
 *   of workspaces itself), copied whole to every node (`create_reference_table`). Tenant tables may
 *   reference them; they never reference a tenant table.
 *
 * test/storage/shard-ready-schema.test.ts reads a freshly migrated Postgres schema and fails on a
 * table that breaks these rules; this list is its only exemption.
 */
export const DISTRIBUTION_COLUMN = 'org_id'

export const REFERENCE_TABLES: readonly string[] = [
  // The workspaces themselves: small, read by every request, and `slug` is unique across them.
  'orgs',
  // People and their own settings, across every workspace they belong to.
  'users',
  'user_passwords',
  'user_preferences',
  'away_periods',
  // Notification mail: one outbox and one digest date per person, across their workspaces.
  'mail_outbox',
  'mail_digests',
  // The personal daily plan: text items belong to no workspace, task items only name one.
  'plan_items',
  // Sign-in, OAuth and protocol sessions: looked up by a token or id before any workspace is known.
  'web_sessions',
  'account_tokens',
  'oauth_clients',
  'oauth_codes',
  'oauth_consents',
  'oauth_refresh_tokens',
  'revoked_access_tokens',
  'protocol_sessions',
  // Keyed by the caller's principal, which may span workspaces.
  'idempotency_keys',
  // Instance-wide secrets (signing keys).
  'secrets',
  // Kysely's bookkeeping of the migrations.
  'kysely_migration',
  'kysely_migration_lock',
]

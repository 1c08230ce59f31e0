import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Accounts' passwords, web sessions and the OAuth authorization server's shared state. None of it
 * is tenant data, so no table carries `org_id`. Secrets (session cookies, codes, refresh tokens,
 * client secrets) are stored as SHA-256 hashes only.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('user_passwords')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id'))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .execute()

  await db.schema
    .createTable('web_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_agent', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .execute()
  await db.schema.createIndex('web_sessions_user').on('web_sessions').column('user_id').execute()

  await db.schema
    .createTable('oauth_clients')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('secret_hash', 'text')
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('redirect_uris', 'text', (c) => c.notNull())
    .addColumn('grant_types', 'text', (c) => c.notNull())
    .addColumn('token_endpoint_auth_method', 'text', (c) => c.notNull())
    .addColumn('logo_uri', 'text')
    .addColumn('client_uri', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .execute()

  // A consent per person and client; CIMD clients are not rows of oauth_clients, so no foreign key.
  await db.schema
    .createTable('oauth_consents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_name', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addUniqueConstraint('oauth_consents_user_client', ['user_id', 'client_id'])
    .execute()

  await db.schema
    .createTable('oauth_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('redirect_uri', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('resource', 'text')
    .addColumn('code_challenge', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('consumed_at', sql.raw(ts))
    .execute()
  await db.schema.createIndex('oauth_codes_grant').on('oauth_codes').column('grant_id').execute()

  await db.schema
    .createTable('oauth_refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('grant_id', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('resource', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('rotated_at', sql.raw(ts))
    .addColumn('replay', 'text')
    .execute()
  await db.schema
    .createIndex('oauth_refresh_tokens_grant')
    .on('oauth_refresh_tokens')
    .column('grant_id')
    .execute()
}

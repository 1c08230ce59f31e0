import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Links sent by mail that work once: finishing a sign-up (so sign-up never says whether an address
 * has an account) and resetting a password. Only the token's hash is kept.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('account_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('password_hash', 'text')
    .addColumn('return_to', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .execute()
  await db.schema.createIndex('account_tokens_expiry').on('account_tokens').column('expires_at').execute()
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Access tokens revoked one by one (RFC 7009). A row lives until the token would have expired,
 * then `prune` deletes it; the primary key makes the per-request check one index probe.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('revoked_access_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .execute()
  await db.schema
    .createIndex('revoked_access_tokens_expiry')
    .on('revoked_access_tokens')
    .column('expires_at')
    .execute()
}

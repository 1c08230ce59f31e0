import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Resumable protocol sessions (MCP Streamable HTTP): any instance rebuilds a session from its row
 * when one of its requests lands there. `prune` deletes rows unseen for a day, by the index.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'
  await db.schema
    .createTable('protocol_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('protocol', 'text', (c) => c.notNull())
    .addColumn('state', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('seen_at', sql.raw(ts), (c) => c.notNull())
    .execute()
  await db.schema.createIndex('protocol_sessions_seen').on('protocol_sessions').column('seen_at').execute()
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Task history. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'

  // Append-only; no foreign key to tasks, so a deleted task's log stays readable to the engine.
  await db.schema
    .createTable('task_history')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('before_value', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('after_value', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_history_pk', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('task_history_task')
    .on('task_history')
    .columns(['org_id', 'task_id', 'created_at', 'id'])
    .execute()
}

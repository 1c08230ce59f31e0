import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Task history, dates, subtasks, dependencies, relations, previous keys, subscribers and links. */
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

  await db.schema.alterTable('tasks').addColumn('start_date', 'text').execute()
  await db.schema.alterTable('tasks').addColumn('parent_id', 'text').execute()
  await db.schema.createIndex('tasks_parent').on('tasks').columns(['org_id', 'parent_id']).execute()

  // Edges go away with a deleted task (the service removes them), so no foreign keys here either.
  await db.schema
    .createTable('task_dependencies')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('blocker_id', 'text', (c) => c.notNull())
    .addColumn('blocked_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_dependencies_pk', ['org_id', 'blocker_id', 'blocked_id'])
    .execute()
  await db.schema
    .createIndex('task_dependencies_blocked')
    .on('task_dependencies')
    .columns(['org_id', 'blocked_id'])
    .execute()

  // One row per direction: (a, b, related) and (b, a, related); (dup, orig, duplicateOf) and its mirror.
  await db.schema
    .createTable('task_relations')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('related_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_relations_pk', ['org_id', 'task_id', 'related_id'])
    .execute()

  // Keys a task carried before it moved to another team; stored upper-case.
  await db.schema
    .createTable('task_previous_keys')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_previous_keys_pk', ['org_id', 'key'])
    .execute()

  await db.schema
    .createTable('task_subscribers')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_subscribers_pk', ['org_id', 'task_id', 'actor_id'])
    .execute()

  await db.schema
    .createTable('task_links')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_links_pk', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('task_links_task')
    .on('task_links')
    .columns(['org_id', 'task_id', 'created_at', 'id'])
    .execute()
}

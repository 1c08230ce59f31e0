import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Labels (org and team, with exclusive groups), labels on tasks, threaded comments and reactions. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  // team_id null: an org label. name_key is the lowercased name, for uniqueness checks and sorting.
  await db.schema
    .createTable('labels')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('is_group', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('labels_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('labels_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .addForeignKeyConstraint('labels_parent', ['org_id', 'parent_id'], 'labels', ['org_id', 'id'])
    .execute()
  await db.schema.createIndex('labels_name').on('labels').columns(['org_id', 'name_key', 'id']).execute()
  await db.schema.createIndex('labels_parent').on('labels').columns(['org_id', 'parent_id']).execute()

  await db.schema
    .createTable('task_labels')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('label_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('task_labels_pk', ['org_id', 'task_id', 'label_id'])
    .addForeignKeyConstraint('task_labels_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addForeignKeyConstraint('task_labels_label', ['org_id', 'label_id'], 'labels', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('task_labels_label')
    .on('task_labels')
    .columns(['org_id', 'label_id', 'task_id'])
    .execute()

  // thread_id is the root of the comment's thread (its own id for a root): sorting by
  // (thread_id, id) lists each thread's root followed by its replies.
  await db.schema
    .createTable('comments')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('thread_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('edited_at', sql.raw(ts))
    .addColumn('deleted_at', sql.raw(ts))
    .addColumn('resolved_at', sql.raw(ts))
    .addColumn('resolved_by_id', 'text')
    .addPrimaryKeyConstraint('comments_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('comments_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addForeignKeyConstraint('comments_thread', ['org_id', 'thread_id'], 'comments', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('comments_task_thread')
    .on('comments')
    .columns(['org_id', 'task_id', 'thread_id', 'id'])
    .execute()
  await db.schema
    .createIndex('comments_thread')
    .on('comments')
    .columns(['org_id', 'thread_id', 'id'])
    .execute()

  await db.schema
    .createTable('comment_revisions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('editor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('replaced_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_revisions_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('comment_revisions_comment', ['org_id', 'comment_id'], 'comments', [
      'org_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('comment_revisions_comment')
    .on('comment_revisions')
    .columns(['org_id', 'comment_id', 'id'])
    .execute()

  // task_id: the task reacted to, or the task of the comment; reads check its visibility.
  await db.schema
    .createTable('reactions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('reactions_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('reactions_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addUniqueConstraint('reactions_one_per_actor', [
      'org_id',
      'target_type',
      'target_id',
      'emoji',
      'actor_id',
    ])
    .execute()
  await db.schema
    .createIndex('reactions_target')
    .on('reactions')
    .columns(['org_id', 'target_type', 'target_id', 'emoji', 'id'])
    .execute()
}

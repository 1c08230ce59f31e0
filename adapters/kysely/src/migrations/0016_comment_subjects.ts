import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

const COMMENT_COLUMNS =
  'org_id, id, task_id, thread_id, author_id, body, created_at, updated_at, edited_at, deleted_at, resolved_at, resolved_by_id'
const REVISION_COLUMNS = 'org_id, id, comment_id, body, editor_id, created_at, replaced_at'
const REACTION_COLUMNS = 'org_id, id, target_type, target_id, task_id, emoji, actor_id, created_at'

/**
 * Comment threads on projects, milestones and status updates: a comment names its subject
 * (`subject_type`, `subject_id`) and `task_id` is kept, now nullable, for a task's comments; a
 * reaction's `task_id` becomes nullable too. SQLite cannot drop a NOT NULL in place, so on both
 * databases the three tables are rebuilt with every row kept (existing comments are on tasks).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  for (const t of ['comments', 'comment_revisions', 'reactions'])
    await sql`create table ${sql.raw(`${t}_copy`)} as select * from ${sql.raw(t)}`.execute(db)
  await db.schema.dropTable('comment_revisions').execute()
  await db.schema.dropTable('reactions').execute()
  await db.schema.dropTable('comments').execute()

  await db.schema
    .createTable('comments')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('thread_id', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addColumn('edited_at', ts)
    .addColumn('deleted_at', ts)
    .addColumn('resolved_at', ts)
    .addColumn('resolved_by_id', 'text')
    .addPrimaryKeyConstraint('comments_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('comments_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addForeignKeyConstraint('comments_thread', ['org_id', 'thread_id'], 'comments', ['org_id', 'id'])
    .addCheckConstraint('comments_task_subject', sql`(subject_type = 'task') = (task_id is not null)`)
    .execute()
  // (thread_id, id) within a subject lists each thread's root followed by its replies.
  await db.schema
    .createIndex('comments_subject_thread')
    .on('comments')
    .columns(['org_id', 'subject_type', 'subject_id', 'thread_id', 'id'])
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
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('replaced_at', ts, (c) => c.notNull())
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

  // task_id: the task reacted to, or the task of a comment on a task; null otherwise.
  await db.schema
    .createTable('reactions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
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

  const comments = sql.raw(COMMENT_COLUMNS)
  await sql`insert into comments (${comments}, subject_type, subject_id)
    select ${comments}, 'task', task_id from comments_copy`.execute(db)
  const revisions = sql.raw(REVISION_COLUMNS)
  await sql`insert into comment_revisions (${revisions}) select ${revisions} from comment_revisions_copy`.execute(
    db,
  )
  const reactions = sql.raw(REACTION_COLUMNS)
  await sql`insert into reactions (${reactions}) select ${reactions} from reactions_copy`.execute(db)
  for (const t of ['comment_revisions_copy', 'reactions_copy', 'comments_copy'])
    await db.schema.dropTable(t).execute()
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Status updates on a subject (a project now; programs and initiatives later, hence no foreign key
 * on the subject), their edit history, and each project's update cadence.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('status_updates')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('health', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    // The subject's progress at posting time; all three null when it had no tasks.
    .addColumn('progress_tasks', 'integer')
    .addColumn('progress_completed_tasks', 'integer')
    .addColumn('progress_completed_ratio', 'double precision')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('edited_at', sql.raw(ts))
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('status_updates_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('status_updates_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // Lists newest first, and the latest active update of a subject (its health).
  await db.schema
    .createIndex('status_updates_subject')
    .on('status_updates')
    .columns(['org_id', 'subject_type', 'subject_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('status_update_revisions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('update_id', 'text', (c) => c.notNull())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('health', 'text', (c) => c.notNull())
    .addColumn('editor_id', 'text', (c) => c.notNull())
    .addColumn('replaced_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('status_update_revisions_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('status_update_revisions_update', ['org_id', 'update_id'], 'status_updates', [
      'org_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('status_update_revisions_update')
    .on('status_update_revisions')
    .columns(['org_id', 'update_id', 'replaced_at', 'id'])
    .execute()

  // When status updates are due: `none`, `weekly` or `biweekly`, on a weekday (UTC).
  await db.schema
    .alterTable('projects')
    .addColumn('update_cadence', 'text', (c) => c.notNull().defaultTo('none'))
    .execute()
  await db.schema
    .alterTable('projects')
    .addColumn('update_weekday', 'text', (c) => c.notNull().defaultTo('friday'))
    .execute()
}

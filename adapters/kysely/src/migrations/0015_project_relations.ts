import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Relations between projects and milestones; project members (backfilled with the leads),
 * labels and history. `project_labels` has no foreign key to `labels`: reads join the label, so deleting a label
 * takes it off projects without the labels group knowing about projects.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')

  await db.schema
    .createTable('project_relations')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('milestone_id', 'text')
    .addColumn('related_project_id', 'text', (c) => c.notNull())
    .addColumn('related_milestone_id', 'text')
    // The milestone id, or the project id for the whole project: one relation per ordered pair.
    .addColumn('source_key', 'text', (c) => c.notNull())
    .addColumn('target_key', 'text', (c) => c.notNull())
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_relations_pk', ['org_id', 'id'])
    .addUniqueConstraint('project_relations_pair', ['org_id', 'source_key', 'target_key'])
    .addForeignKeyConstraint('project_relations_project', ['org_id', 'project_id'], 'projects', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('project_relations_related', ['org_id', 'related_project_id'], 'projects', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('project_relations_milestone', ['org_id', 'milestone_id'], 'milestones', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint(
      'project_relations_related_milestone',
      ['org_id', 'related_milestone_id'],
      'milestones',
      ['org_id', 'id'],
    )
    .execute()
  // Lists and `openBlockers` read a project's relations from either end.
  await db.schema
    .createIndex('project_relations_source')
    .on('project_relations')
    .columns(['org_id', 'project_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('project_relations_target')
    .on('project_relations')
    .columns(['org_id', 'related_project_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('project_members')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_members_pk', ['org_id', 'project_id', 'member_id'])
    .addForeignKeyConstraint('project_members_project', ['org_id', 'project_id'], 'projects', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('project_members_member', ['org_id', 'member_id'], 'members', ['org_id', 'id'])
    .execute()
  await sql`insert into project_members (org_id, project_id, member_id, created_at)
    select org_id, id, lead_id, updated_at from projects where lead_id is not null`.execute(db)

  await db.schema
    .createTable('project_labels')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('label_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_labels_pk', ['org_id', 'project_id', 'label_id'])
    .addForeignKeyConstraint('project_labels_project', ['org_id', 'project_id'], 'projects', ['org_id', 'id'])
    .execute()

  await db.schema
    .createTable('project_history')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('before_value', sql.raw(dialect === 'postgres' ? 'jsonb' : 'text'), (c) => c.notNull())
    .addColumn('after_value', sql.raw(dialect === 'postgres' ? 'jsonb' : 'text'), (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('project_history_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('project_history_project', ['org_id', 'project_id'], 'projects', [
      'org_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('project_history_project')
    .on('project_history')
    .columns(['org_id', 'project_id', 'created_at', 'id'])
    .execute()
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Initiatives, their hierarchy as a closure table (every ancestor/descendant pair with its distance,
 * kept in the writing transaction, so subtrees and visibility are joins), linked projects, members
 * and history.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'

  await db.schema
    .createTable('initiatives')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('owner_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('target_date', 'text')
    .addColumn('parent_id', 'text')
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('started_at', sql.raw(ts))
    .addColumn('completed_at', sql.raw(ts))
    .addColumn('canceled_at', sql.raw(ts))
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('initiatives_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('initiatives_org', ['org_id'], 'orgs', ['id'])
    .addForeignKeyConstraint('initiatives_owner', ['org_id', 'owner_id'], 'members', ['org_id', 'id'])
    .addForeignKeyConstraint('initiatives_parent', ['org_id', 'parent_id'], 'initiatives', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('initiatives_created')
    .on('initiatives')
    .columns(['org_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('initiatives_parent')
    .on('initiatives')
    .columns(['org_id', 'parent_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('initiative_closure')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('ancestor_id', 'text', (c) => c.notNull())
    .addColumn('descendant_id', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_closure_pk', ['org_id', 'ancestor_id', 'descendant_id'])
    .addForeignKeyConstraint('initiative_closure_ancestor', ['org_id', 'ancestor_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('initiative_closure_descendant', ['org_id', 'descendant_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .execute()
  // Ancestors of one initiative (nesting checks).
  await db.schema
    .createIndex('initiative_closure_descendant')
    .on('initiative_closure')
    .columns(['org_id', 'descendant_id', 'ancestor_id'])
    .execute()

  await db.schema
    .createTable('initiative_projects')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_projects_pk', ['org_id', 'initiative_id', 'project_id'])
    .addForeignKeyConstraint('initiative_projects_initiative', ['org_id', 'initiative_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('initiative_projects_project', ['org_id', 'project_id'], 'projects', [
      'org_id',
      'id',
    ])
    .execute()
  // A project's initiatives (deleting a project, visibility through a project).
  await db.schema
    .createIndex('initiative_projects_project')
    .on('initiative_projects')
    .columns(['org_id', 'project_id', 'initiative_id'])
    .execute()

  await db.schema
    .createTable('initiative_members')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('added_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_members_pk', ['org_id', 'initiative_id', 'member_id'])
    .addForeignKeyConstraint('initiative_members_initiative', ['org_id', 'initiative_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .addForeignKeyConstraint('initiative_members_member', ['org_id', 'member_id'], 'members', [
      'org_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('initiative_history')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changes', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_history_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('initiative_history_initiative', ['org_id', 'initiative_id'], 'initiatives', [
      'org_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('initiative_history_initiative')
    .on('initiative_history')
    .columns(['org_id', 'initiative_id', 'created_at', 'id'])
    .execute()

  // The org-wide feed of updates, newest first.
  await db.schema
    .createIndex('status_updates_created')
    .on('status_updates')
    .columns(['org_id', 'created_at', 'id'])
    .execute()
}

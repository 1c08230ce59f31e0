import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Programs, the projects they hold (ordered; a project may be in several programs), their members
 * and teams. Links go when the project, member or team row goes (cascade); a program's status
 * updates live in `status_updates` with `subject_type = 'program'`; `program_history` keeps its changes.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('programs')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('retired_at', sql.raw(ts))
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('programs_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('programs_org', ['org_id'], 'orgs', ['id'])
    .execute()
  await db.schema
    .createIndex('programs_org_created')
    .on('programs')
    .columns(['org_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('program_projects')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('added_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('program_projects_pk', ['org_id', 'program_id', 'project_id'])
    .addForeignKeyConstraint(
      'program_projects_program',
      ['org_id', 'program_id'],
      'programs',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'program_projects_project',
      ['org_id', 'project_id'],
      'projects',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()
  // Program order, and the programs holding a project.
  await db.schema
    .createIndex('program_projects_position')
    .on('program_projects')
    .columns(['org_id', 'program_id', 'position', 'project_id'])
    .execute()
  await db.schema
    .createIndex('program_projects_project')
    .on('program_projects')
    .columns(['org_id', 'project_id'])
    .execute()

  await db.schema
    .createTable('program_members')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('program_members_pk', ['org_id', 'program_id', 'member_id'])
    .addForeignKeyConstraint(
      'program_members_program',
      ['org_id', 'program_id'],
      'programs',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()

  await db.schema
    .createTable('program_teams')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('program_teams_pk', ['org_id', 'program_id', 'team_id'])
    .addForeignKeyConstraint(
      'program_teams_program',
      ['org_id', 'program_id'],
      'programs',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()
  await db.schema
    .createIndex('program_teams_team')
    .on('program_teams')
    .columns(['org_id', 'team_id'])
    .execute()

  // Field and link changes; `ref_type`/`ref_id` name the project or team a link entry is about, so
  // reads can leave out what the reader cannot view. No foreign key on the ref: history outlives links.
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'
  await db.schema
    .createTable('program_history')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('field', 'text', (c) => c.notNull())
    .addColumn('before_value', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('after_value', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('ref_type', 'text')
    .addColumn('ref_id', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('program_history_pk', ['org_id', 'id'])
    .addForeignKeyConstraint(
      'program_history_program',
      ['org_id', 'program_id'],
      'programs',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()
  await db.schema
    .createIndex('program_history_program')
    .on('program_history')
    .columns(['org_id', 'program_id', 'created_at', 'id'])
    .execute()
}

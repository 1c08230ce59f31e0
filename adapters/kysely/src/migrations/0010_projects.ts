import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Project statuses per org, projects across teams, milestones, and the project of a task. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('project_statuses')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    // The category a default status was seeded for; null for statuses people create. Unique, so
    // concurrent first reads of an org insert the default set once.
    .addColumn('seed', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('project_statuses_pk', ['org_id', 'id'])
    .addUniqueConstraint('project_statuses_seed', ['org_id', 'seed'])
    .addUniqueConstraint('project_statuses_name', ['org_id', 'name_key'])
    .addForeignKeyConstraint('project_statuses_org', ['org_id'], 'orgs', ['id'])
    .execute()
  await db.schema
    .createIndex('project_statuses_position')
    .on('project_statuses')
    .columns(['org_id', 'position', 'id'])
    .execute()

  await db.schema
    .createTable('projects')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('icon', 'text')
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('status_id', 'text', (c) => c.notNull())
    .addColumn('lead_id', 'text')
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text')
    .addColumn('target_date', 'text')
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('started_at', sql.raw(ts))
    .addColumn('completed_at', sql.raw(ts))
    .addColumn('canceled_at', sql.raw(ts))
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('projects_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('projects_status', ['org_id', 'status_id'], 'project_statuses', ['org_id', 'id'])
    .addForeignKeyConstraint('projects_lead', ['org_id', 'lead_id'], 'members', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('projects_created')
    .on('projects')
    .columns(['org_id', 'created_at', 'id'])
    .execute()

  await db.schema
    .createTable('project_teams')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('project_teams_pk', ['org_id', 'project_id', 'team_id'])
    .addForeignKeyConstraint('project_teams_project', ['org_id', 'project_id'], 'projects', ['org_id', 'id'])
    .addForeignKeyConstraint('project_teams_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  // The visibility predicate reads a team's projects.
  await db.schema
    .createIndex('project_teams_team')
    .on('project_teams')
    .columns(['org_id', 'team_id', 'project_id'])
    .execute()

  await db.schema
    .createTable('milestones')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('target_date', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('milestones_pk', ['org_id', 'id'])
    .addUniqueConstraint('milestones_name', ['org_id', 'project_id', 'name_key'])
    .addForeignKeyConstraint('milestones_project', ['org_id', 'project_id'], 'projects', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('milestones_position')
    .on('milestones')
    .columns(['org_id', 'project_id', 'position', 'id'])
    .execute()

  await db.schema.alterTable('tasks').addColumn('project_id', 'text').execute()
  await db.schema.alterTable('tasks').addColumn('milestone_id', 'text').execute()
  if (dialect === 'postgres') {
    // SQLite cannot add a constraint to an existing table; there the services keep the references valid.
    await db.schema
      .alterTable('tasks')
      .addForeignKeyConstraint('tasks_project', ['org_id', 'project_id'], 'projects', ['org_id', 'id'])
      .execute()
    await db.schema
      .alterTable('tasks')
      .addForeignKeyConstraint('tasks_milestone', ['org_id', 'milestone_id'], 'milestones', ['org_id', 'id'])
      .execute()
  }
  await db.schema.createIndex('tasks_project').on('tasks').columns(['org_id', 'project_id']).execute()
  await db.schema.createIndex('tasks_milestone').on('tasks').columns(['org_id', 'milestone_id']).execute()
}

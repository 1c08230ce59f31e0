import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** The first schema: accounts, workspaces, members, teams, workflow states, tasks, the event log. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'
  const big = dialect === 'postgres' ? 'bigint' : 'integer'
  const real = dialect === 'postgres' ? 'double precision' : 'real'

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .execute()

  // Every tenant table carries org_id in its primary and foreign keys, ready to distribute by org.
  await db.schema
    .createTable('orgs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .execute()

  await db.schema
    .createTable('org_event_counters')
    .addColumn('org_id', 'text', (c) => c.primaryKey().references('orgs.id'))
    .addColumn('last_seq', sql.raw(big), (c) => c.notNull().defaultTo(0))
    .execute()

  await db.schema
    .createTable('members')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('members_pk', ['org_id', 'id'])
    .addUniqueConstraint('members_org_user', ['org_id', 'user_id'])
    .execute()
  await db.schema.createIndex('members_user').on('members').columns(['user_id', 'status']).execute()

  await db.schema
    .createTable('teams')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('next_number', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('teams_pk', ['org_id', 'id'])
    .addUniqueConstraint('teams_org_key', ['org_id', 'key'])
    .execute()

  await db.schema
    .createTable('workflow_states')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('archived_at', sql.raw(ts))
    .addPrimaryKeyConstraint('workflow_states_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('workflow_states_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('workflow_states_team_position')
    .on('workflow_states')
    .columns(['org_id', 'team_id', 'position'])
    .execute()

  await db.schema
    .createTable('tasks')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('state_id', 'text', (c) => c.notNull())
    .addColumn('assignee_id', 'text')
    // A person (mem_) or an agent (agt_): any Actor can create work.
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('estimate', sql.raw(real))
    .addColumn('due_date', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('started_at', sql.raw(ts))
    .addColumn('completed_at', sql.raw(ts))
    .addColumn('canceled_at', sql.raw(ts))
    .addColumn('archived_at', sql.raw(ts))
    .addColumn('deleted_at', sql.raw(ts))
    .addPrimaryKeyConstraint('tasks_pk', ['org_id', 'id'])
    .addUniqueConstraint('tasks_team_number', ['org_id', 'team_id', 'number'])
    .addForeignKeyConstraint('tasks_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .addForeignKeyConstraint('tasks_state', ['org_id', 'state_id'], 'workflow_states', ['org_id', 'id'])
    .addForeignKeyConstraint('tasks_assignee', ['org_id', 'assignee_id'], 'members', ['org_id', 'id'])
    .execute()
  // Keyset pages by creation and by last change; filters narrow them further.
  await db.schema.createIndex('tasks_created').on('tasks').columns(['org_id', 'created_at', 'id']).execute()
  await db.schema.createIndex('tasks_updated').on('tasks').columns(['org_id', 'updated_at', 'id']).execute()
  await db.schema.createIndex('tasks_state').on('tasks').columns(['org_id', 'state_id']).execute()
  await db.schema.createIndex('tasks_assignee').on('tasks').columns(['org_id', 'assignee_id']).execute()

  await db.schema
    .createTable('events')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('seq', sql.raw(big), (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('resource_type', 'text', (c) => c.notNull())
    .addColumn('resource_id', 'text', (c) => c.notNull())
    .addColumn('data', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('events_pk', ['org_id', 'seq'])
    .execute()

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('principal_key', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('body', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('etag', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['principal_key', 'key'])
    .execute()
  await db.schema
    .createIndex('idempotency_keys_created')
    .on('idempotency_keys')
    .column('created_at')
    .execute()

  await db.schema
    .createTable('secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .execute()
}

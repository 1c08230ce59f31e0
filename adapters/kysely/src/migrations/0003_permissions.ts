import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Team memberships, grants, invitations, agents, their work sessions and approval requests. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'

  // actor_id is a member (mem_) or an agent (agt_).
  await db.schema
    .createTable('team_memberships')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('team_memberships_pk', ['org_id', 'team_id', 'actor_id'])
    .addForeignKeyConstraint('team_memberships_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  await db.schema
    .createIndex('team_memberships_actor')
    .on('team_memberships')
    .columns(['org_id', 'actor_id'])
    .execute()

  await db.schema
    .createTable('grants')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('subject_type', 'text', (c) => c.notNull())
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('container_type', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('capability', 'text', (c) => c.notNull())
    .addColumn('rank', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('grants_pk', ['org_id', 'id'])
    .addUniqueConstraint('grants_subject_container', [
      'org_id',
      'subject_type',
      'subject_id',
      'container_type',
      'container_id',
    ])
    .execute()
  await db.schema
    .createIndex('grants_container')
    .on('grants')
    .columns(['org_id', 'container_type', 'container_id'])
    .execute()

  await db.schema
    .createTable('invitations')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('accepted_at', sql.raw(ts))
    .addColumn('accepted_by', 'text')
    .addColumn('revoked_at', sql.raw(ts))
    .addPrimaryKeyConstraint('invitations_pk', ['org_id', 'id'])
    .execute()

  await db.schema
    .createTable('agents')
    .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approval_policy', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('agents_pk', ['org_id', 'id'])
    .execute()

  await db.schema
    .createTable('agent_sessions')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('title', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_by', 'text', (c) => c.notNull())
    .addColumn('last_activity_seq', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('ended_at', sql.raw(ts))
    .addPrimaryKeyConstraint('agent_sessions_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('agent_sessions_agent', ['org_id', 'agent_id'], 'agents', ['org_id', 'id'])
    .addForeignKeyConstraint('agent_sessions_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .execute()

  await db.schema
    .createTable('agent_activities')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('content', 'text', (c) => c.notNull())
    .addColumn('data', sql.raw(jsonType))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('agent_activities_pk', ['org_id', 'session_id', 'seq'])
    .addForeignKeyConstraint('agent_activities_session', ['org_id', 'session_id'], 'agent_sessions', [
      'org_id',
      'id',
    ])
    .execute()

  await db.schema
    .createTable('approval_requests')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('agent_id', 'text', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('input', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('capability', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('proposed_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('expires_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('decided_by', 'text')
    .addColumn('decided_at', sql.raw(ts))
    .addColumn('reason', 'text')
    .addColumn('result', sql.raw(jsonType))
    .addPrimaryKeyConstraint('approval_requests_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('approval_requests_session', ['org_id', 'session_id'], 'agent_sessions', [
      'org_id',
      'id',
    ])
    .execute()
  await db.schema
    .createIndex('approval_requests_state')
    .on('approval_requests')
    .columns(['org_id', 'state', 'id'])
    .execute()
}

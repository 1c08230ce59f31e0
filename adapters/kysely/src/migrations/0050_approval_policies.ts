import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Approval policies on containers (org, team, project); the policy and version an approval request
 * was created under, and what its deciders need; a session's external URL and plan summary.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const jsonType = dialect === 'postgres' ? 'jsonb' : 'text'
  await db.schema
    .createTable('approval_policies')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('container_type', 'text', (c) => c.notNull())
    .addColumn('container_id', 'text', (c) => c.notNull())
    .addColumn('operations', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('capabilities', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('agent_ids', sql.raw(jsonType), (c) => c.notNull())
    .addColumn('approver_capability', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('approval_policies_pk', ['org_id', 'id'])
    .execute()
  // The gate reads the policies of an action's containers on every agent action.
  await db.schema
    .createIndex('approval_policies_container')
    .on('approval_policies')
    .columns(['org_id', 'container_type', 'container_id', 'id'])
    .execute()
  await db.schema.alterTable('approval_requests').addColumn('policy_id', 'text').execute()
  await db.schema.alterTable('approval_requests').addColumn('policy_version', 'integer').execute()
  await db.schema.alterTable('approval_requests').addColumn('approver_capability', 'text').execute()
  await db.schema.alterTable('agent_sessions').addColumn('external_url', 'text').execute()
  await db.schema.alterTable('agent_sessions').addColumn('plan_summary', 'text').execute()
}

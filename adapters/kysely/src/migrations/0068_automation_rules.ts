import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Automation rules (docs/rules.md): the rules, their run logs, the rule engine's position in each
 * workspace's event log (as the notifier keeps its own), and the chain depth of the events rule runs
 * wrote. Task history names what acted on the engine's behalf (`automation`: `autoClose`,
 * `autoArchive` or a rule's id).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  const json = dialect === 'postgres' ? 'jsonb' : 'text'
  await db.schema
    .createTable('automation_rules')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull())
    .addColumn('trigger', sql.raw(json), (c) => c.notNull())
    .addColumn('conditions', sql.raw(json), (c) => c.notNull())
    .addColumn('actions', sql.raw(json), (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_rules_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('automation_rules_org', ['org_id'], 'orgs', ['id'])
    .execute()
  await db.schema
    .createIndex('automation_rules_team')
    .on('automation_rules')
    .columns(['org_id', 'team_id', 'id'])
    .execute()

  await db.schema
    .createTable('automation_runs')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('rule_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('error', 'text')
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_runs_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('automation_runs_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // A rule's log, newest first; one run per rule and event, whatever the number of engines.
  await db.schema
    .createIndex('automation_runs_rule')
    .on('automation_runs')
    .columns(['org_id', 'rule_id', 'created_at', 'id'])
    .execute()
  await db.schema
    .createIndex('automation_runs_once')
    .on('automation_runs')
    .columns(['org_id', 'rule_id', 'event_id'])
    .unique()
    .execute()

  await db.schema
    .createTable('rule_engine_positions')
    .addColumn('org_id', 'text', (c) => c.notNull().primaryKey())
    .addColumn('seq', sql.raw(dialect === 'postgres' ? 'bigint' : 'integer'), (c) => c.notNull())
    .addForeignKeyConstraint('rule_engine_positions_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // Existing workspaces start at their current end: no rule exists yet to run on their past.
  await sql`insert into rule_engine_positions (org_id, seq) select org_id, last_seq from org_event_counters`.execute(
    db,
  )

  await db.schema
    .createTable('rule_event_origins')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('depth', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_event_origins_pk', ['org_id', 'event_id'])
    .addForeignKeyConstraint('rule_event_origins_org', ['org_id'], 'orgs', ['id'])
    .execute()

  await db.schema.alterTable('task_history').addColumn('automation', 'text').execute()
}

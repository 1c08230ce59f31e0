import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/** Team cycles, their cadence settings, and the cycle a task is planned in. */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'

  await db.schema
    .createTable('cycles')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('starts_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('ends_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('completed_at', sql.raw(ts))
    .addColumn('created_at', sql.raw(ts), (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('cycles_pk', ['org_id', 'id'])
    .addUniqueConstraint('cycles_team_number', ['org_id', 'team_id', 'number'])
    .addForeignKeyConstraint('cycles_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()
  // Lists and overlap checks read a team's cycles by start; the maintenance pass reads open ones by end.
  await db.schema
    .createIndex('cycles_team_starts')
    .on('cycles')
    .columns(['org_id', 'team_id', 'starts_at', 'id'])
    .execute()
  await db.schema.createIndex('cycles_open_ends').on('cycles').columns(['completed_at', 'ends_at']).execute()

  await db.schema
    .createTable('cycle_settings')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('team_id', 'text', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull()) // 0 or 1 in both dialects
    .addColumn('duration_weeks', 'integer', (c) => c.notNull())
    .addColumn('cooldown_weeks', 'integer', (c) => c.notNull())
    .addColumn('start_weekday', 'text', (c) => c.notNull())
    .addColumn('auto_create_count', 'integer', (c) => c.notNull())
    .addColumn('updated_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('cycle_settings_pk', ['org_id', 'team_id'])
    .addForeignKeyConstraint('cycle_settings_team', ['org_id', 'team_id'], 'teams', ['org_id', 'id'])
    .execute()

  await db.schema.alterTable('tasks').addColumn('cycle_id', 'text').execute()
  if (dialect === 'postgres') {
    // SQLite cannot add a constraint to an existing table; there the service keeps the reference valid.
    await db.schema
      .alterTable('tasks')
      .addForeignKeyConstraint('tasks_cycle', ['org_id', 'cycle_id'], 'cycles', ['org_id', 'id'])
      .execute()
  }
  await db.schema.createIndex('tasks_cycle').on('tasks').columns(['org_id', 'cycle_id']).execute()
  await historyActorNullable(db, dialect)
}

/**
 * Rollovers by the schedule have no actor: task history records them with a null `actor_id`.
 * SQLite cannot drop a NOT NULL in place, so the table is rebuilt from its own DDL.
 */
async function historyActorNullable(db: Kysely<any>, dialect: Dialect): Promise<void> {
  if (dialect === 'postgres') {
    await sql`alter table task_history alter column actor_id drop not null`.execute(db)
    return
  }
  const objects = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = 'task_history' and sql is not null`.execute(db)
  const table = objects.rows.find((o) => o.type === 'table')
  if (!table) return
  const ddl = table.sql
    .replace(/"actor_id" text not null/i, '"actor_id" text')
    .replace(/"task_history"/, '"task_history_rebuilt"')
  await sql.raw(ddl).execute(db)
  await sql`insert into task_history_rebuilt select * from task_history`.execute(db)
  await sql`drop table task_history`.execute(db)
  await sql`alter table task_history_rebuilt rename to task_history`.execute(db)
  for (const index of objects.rows.filter((o) => o.type === 'index')) await sql.raw(index.sql).execute(db)
}

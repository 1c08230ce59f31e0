import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Automation rules' remaining triggers, and comments the system writes (docs/rules.md):
 *
 * - `rule_due_marks`: the due dates the due-date pass wrote a `task.due_date_passed` event for,
 *   keyed by task and due date, so each fires once and a moved due date fires again.
 * - A run log entry is per rule, event and task: a linked task's change runs a rule on each task
 *   linked to it, all from one event.
 * - A comment's `author_id` may be null (the system: the team's auto-close says why it closed a
 *   task) and `automation` names what wrote it on the engine's behalf, as task history does.
 *   Postgres drops the NOT NULL in place; SQLite cannot, so its `comments` table is rebuilt from
 *   its own definition, every row, index and trigger kept.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('rule_due_marks')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('rule_due_marks_pk', ['org_id', 'task_id', 'due_date'])
    .addForeignKeyConstraint('rule_due_marks_org', ['org_id'], 'orgs', ['id'])
    .execute()

  await sql`drop index automation_runs_once`.execute(db)
  await db.schema
    .createIndex('automation_runs_once')
    .on('automation_runs')
    .columns(['org_id', 'rule_id', 'event_id', 'task_id'])
    .unique()
    .execute()

  await db.schema.alterTable('comments').addColumn('automation', 'text').execute()
  if (dialect === 'postgres') await sql`alter table comments alter column author_id drop not null`.execute(db)
  else await dropNotNullOnSqlite(db, 'comments', 'author_id')
}

/**
 * SQLite cannot change a column's constraint in place: the table is made anew from its stored
 * definition with the change, its rows copied back, its indexes and triggers recreated from their
 * stored definitions. Migrations run in a transaction, where foreign keys cannot be turned off;
 * deferred, the references to the table (replies, revisions) are checked at commit, once every row
 * is back. Dropping a table fires no trigger, and the rows return before the triggers do, so the
 * search index is left as it was.
 */
async function dropNotNullOnSqlite(db: Kysely<any>, table: string, column: string): Promise<void> {
  const { rows } = await sql<{ type: string; sql: string }>`
    select type, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db)
  const create = rows.find((r) => r.type === 'table')?.sql
  const pattern = new RegExp(`("${column}"\\s+text)\\s+not\\s+null`, 'i')
  if (!create || !pattern.test(create)) throw new Error(`${table}.${column}: unexpected definition`)
  const copy = sql.table(`${table}_copy`)
  await sql`pragma defer_foreign_keys = on`.execute(db)
  await sql`create table ${copy} as select * from ${sql.table(table)}`.execute(db)
  await sql`drop table ${sql.table(table)}`.execute(db)
  await sql.raw(create.replace(pattern, '$1')).execute(db)
  await sql`insert into ${sql.table(table)} select * from ${copy}`.execute(db)
  await sql`drop table ${copy}`.execute(db)
  for (const r of rows.filter((r) => r.type !== 'table')) await sql.raw(r.sql).execute(db)
}

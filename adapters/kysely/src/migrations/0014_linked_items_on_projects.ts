import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

const COLUMNS = sql.raw(
  'org_id, id, task_id, url, provider_id, item_type, title, state, assignee, external_updated_at, fetched_at, creator_id, created_at',
)

/**
 * Linked items on projects: an item belongs to a task or to a project (exactly one). SQLite cannot
 * drop a NOT NULL in place, so on both databases the table is rebuilt with its rows kept.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  await sql`create table linked_items_copy as select * from linked_items`.execute(db)
  await db.schema.dropTable('linked_items').execute()
  await db.schema
    .createTable('linked_items')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('project_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('provider_id', 'text')
    .addColumn('item_type', 'text')
    .addColumn('title', 'text')
    .addColumn('state', 'text')
    .addColumn('assignee', 'text')
    .addColumn('external_updated_at', ts)
    .addColumn('fetched_at', ts)
    .addColumn('creator_id', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('linked_items_pk', ['org_id', 'id'])
    .addUniqueConstraint('linked_items_task_url', ['org_id', 'task_id', 'url'])
    .addUniqueConstraint('linked_items_project_url', ['org_id', 'project_id', 'url'])
    .addForeignKeyConstraint('linked_items_task', ['org_id', 'task_id'], 'tasks', ['org_id', 'id'])
    .addForeignKeyConstraint('linked_items_project', ['org_id', 'project_id'], 'projects', ['org_id', 'id'])
    .addCheckConstraint('linked_items_holder', sql`(task_id is null) <> (project_id is null)`)
    .execute()
  await sql`insert into linked_items (${COLUMNS}) select ${COLUMNS} from linked_items_copy`.execute(db)
  await db.schema.dropTable('linked_items_copy').execute()
}

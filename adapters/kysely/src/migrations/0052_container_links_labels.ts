import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * URL resources of projects, programs and initiatives (one table, keyed by the container's kind and
 * id, as status updates), and org labels on programs and initiatives (as `project_labels`: no foreign
 * key to `labels`, reads join the label, so deleting a label takes it off without the labels group
 * knowing about them).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  const real = sql.raw(dialect === 'postgres' ? 'double precision' : 'real')

  await db.schema
    .createTable('resource_links')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('parent_type', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('position', real, (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('resource_links_pk', ['org_id', 'id'])
    .addForeignKeyConstraint('resource_links_org', ['org_id'], 'orgs', ['id'])
    .execute()
  // The container's list, in order; also what deleting a container sweeps.
  await db.schema
    .createIndex('resource_links_parent')
    .on('resource_links')
    .columns(['org_id', 'parent_type', 'parent_id', 'position', 'id'])
    .execute()

  for (const [table, parent] of [
    ['program_labels', 'programs'],
    ['initiative_labels', 'initiatives'],
  ] as const) {
    const column = table === 'program_labels' ? 'program_id' : 'initiative_id'
    await db.schema
      .createTable(table)
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn(column, 'text', (c) => c.notNull())
      .addColumn('label_id', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['org_id', column, 'label_id'])
      .addForeignKeyConstraint(`${table}_parent`, ['org_id', column], parent, ['org_id', 'id'])
      .execute()
    // The `labelId` filter of the list.
    await db.schema
      .createIndex(`${table}_by_label`)
      .on(table)
      .columns(['org_id', 'label_id', column])
      .execute()
  }
}

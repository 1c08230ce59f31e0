import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * The programs an initiative includes, ordered within it; a program may serve several initiatives.
 * A link goes when either side is deleted (cascade).
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = dialect === 'postgres' ? 'timestamptz' : 'text'
  await db.schema
    .createTable('initiative_programs')
    .addColumn('org_id', 'text', (c) => c.notNull())
    .addColumn('initiative_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('added_by', 'text', (c) => c.notNull())
    .addColumn('added_at', sql.raw(ts), (c) => c.notNull())
    .addPrimaryKeyConstraint('initiative_programs_pk', ['org_id', 'initiative_id', 'program_id'])
    .addForeignKeyConstraint(
      'initiative_programs_initiative',
      ['org_id', 'initiative_id'],
      'initiatives',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'initiative_programs_program',
      ['org_id', 'program_id'],
      'programs',
      ['org_id', 'id'],
      (f) => f.onDelete('cascade'),
    )
    .execute()
  // A program's initiatives, oldest link first.
  await db.schema
    .createIndex('initiative_programs_program')
    .on('initiative_programs')
    .columns(['org_id', 'program_id', 'added_at', 'initiative_id'])
    .execute()
}

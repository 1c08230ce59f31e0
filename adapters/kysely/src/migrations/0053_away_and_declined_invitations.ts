import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * A person's away periods (calendar dates, both included), and invitations the invited person
 * declined, with their own list by address across workspaces.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const ts = sql.raw(dialect === 'postgres' ? 'timestamptz' : 'text')
  await db.schema
    .createTable('away_periods')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('start_date', 'text', (c) => c.notNull())
    .addColumn('end_date', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', ts, (c) => c.notNull())
    .addColumn('updated_at', ts, (c) => c.notNull())
    .addPrimaryKeyConstraint('away_periods_pk', ['user_id', 'id'])
    .addCheckConstraint('away_periods_order', sql`end_date >= start_date`)
    .execute()
  // Overlap checks and "who is away today" read a person's periods by date.
  await db.schema
    .createIndex('away_periods_dates')
    .on('away_periods')
    .columns(['user_id', 'start_date', 'end_date'])
    .execute()
  await db.schema.alterTable('invitations').addColumn('declined_at', ts).execute()
  // me.invitations.list reads an address's invitations in every workspace.
  await db.schema.createIndex('invitations_email').on('invitations').columns(['email', 'id']).execute()
}

import { type Kysely, sql } from 'kysely'
import type { Dialect } from '../schema.ts'

/**
 * Ready to shard by workspace (docs/scale-out.md): the last keys of tenant tables without `org_id`
 * gain it, so Citus can distribute every tenant table by `org_id`. Nothing changes for a reader:
 *
 * - `favorites` and `timers` key by person, record (or nothing) and `org_id`; the person comes
 *   first, so the lookups by person use the key as before. One timer per person across workspaces
 *   stays the engine's rule, under its per-person lock.
 * - An invitation's token hash and a pending connection's OAuth `state` are unique per workspace;
 *   both are random (256 bits), so they never meet across workspaces, and the index, led by the
 *   hash or the state, still finds the one row when only the token is known.
 *
 * Postgres changes the constraints in place; SQLite cannot change a primary key or a column's
 * `unique`, so those tables are rebuilt, their rows copied.
 */
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  await sql`drop index connections_state`.execute(db)
  await db.schema
    .createIndex('connections_state')
    .on('connections')
    .columns(['state', 'org_id'])
    .unique()
    .execute()
  if (dialect === 'postgres') {
    await sql`alter table favorites drop constraint favorites_pk,
      add constraint favorites_pk primary key (user_id, id, org_id)`.execute(db)
    await sql`alter table timers drop constraint timers_pkey,
      add constraint timers_pk primary key (user_id, org_id)`.execute(db)
    await sql`alter table invitations drop constraint invitations_token_hash_key,
      add constraint invitations_token unique (token_hash, org_id)`.execute(db)
    return
  }
  await rebuild(db, 'favorites', async (name) => {
    await db.schema
      .createTable(name)
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('org_id', 'text', (c) => c.notNull().references('orgs.id'))
      .addColumn('record_type', 'text', (c) => c.notNull())
      .addColumn('record_id', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('favorites_pk', ['user_id', 'id', 'org_id'])
      .addUniqueConstraint('favorites_record', ['user_id', 'org_id', 'record_type', 'record_id'])
      .execute()
  })
  await db.schema
    .createIndex('favorites_order')
    .on('favorites')
    .columns(['user_id', 'position', 'id'])
    .execute()

  await rebuild(db, 'timers', async (name) => {
    await db.schema
      .createTable(name)
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('member_id', 'text', (c) => c.notNull())
      .addColumn('task_id', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('started_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('timers_pk', ['user_id', 'org_id'])
      .execute()
  })

  await rebuild(db, 'invitations', async (name) => {
    await db.schema
      .createTable(name)
      .addColumn('org_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull())
      .addColumn('invited_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('accepted_by', 'text')
      .addColumn('revoked_at', 'text')
      .addColumn('declined_at', 'text')
      .addPrimaryKeyConstraint('invitations_pk', ['org_id', 'id'])
      .addUniqueConstraint('invitations_token', ['token_hash', 'org_id'])
      .execute()
  })
  await db.schema.createIndex('invitations_email').on('invitations').columns(['email', 'id']).execute()
}

/** SQLite: creates `table` anew under a temporary name, copies every row, and takes the old one's place. */
async function rebuild(
  db: Kysely<any>,
  table: string,
  create: (name: string) => Promise<void>,
): Promise<void> {
  const next = `${table}_next`
  await create(next)
  // `create` lists the columns in the order the old table holds them.
  await sql`insert into ${sql.table(next)} select * from ${sql.table(table)}`.execute(db)
  await db.schema.dropTable(table).execute()
  await db.schema.alterTable(next).renameTo(table).execute()
}

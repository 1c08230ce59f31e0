import { connect } from '@workgraph/kysely'
import { type Kysely, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/** 0064_keys_carry_org: every favorite, timer, invitation and pending connection of a 0063 database survives. */
describeEachDatabase('migration 0064_keys_carry_org', (db: TestDatabase) => {
  let target: DatabaseTarget
  let conn: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    target = await db.empty()
    // One connection, so turning foreign keys off holds for every statement.
    conn = await connect({ url: target.url, poolSize: 1 })
  })
  afterAll(async () => {
    await conn.db.destroy()
    await target.drop()
  })

  it('keeps every row and field of the tables whose keys gain org_id', async () => {
    const migrator = new Migrator({
      db: conn.db,
      provider: { getMigrations: async () => migrationsFor(conn.dialect) },
    })
    expect((await migrator.migrateTo('0063_task_links_into_resource_links')).error).toBeUndefined()
    // Rows as 0063 holds them; the people and workspaces they name are not needed for this check.
    if (conn.dialect === 'postgres') await sql`set session_replication_role = replica`.execute(conn.db)
    else await sql`pragma foreign_keys = off`.execute(conn.db)
    const at = '2030-01-13T16:00:00.000Z'
    const rows = {
      favorites: [
        {
          user_id: 'usr_1',
          id: 'fav_1',
          org_id: 'org_1',
          record_type: 'task',
          record_id: 'task_1',
          position: 0,
          created_at: at,
        },
        {
          user_id: 'usr_1',
          id: 'fav_2',
          org_id: 'org_2',
          record_type: 'project',
          record_id: 'prj_1',
          position: 1,
          created_at: at,
        },
      ],
      timers: [
        {
          user_id: 'usr_1',
          org_id: 'org_2',
          member_id: 'mem_9',
          task_id: 'task_7',
          note: 'pairing',
          started_at: at,
        },
      ],
      invitations: [
        {
          org_id: 'org_1',
          id: 'inv_1',
          email: 'a@example.com',
          role: 'member',
          token_hash: 'hash_1',
          invited_by: 'mem_1',
          created_at: at,
          expires_at: at,
          accepted_at: at,
          accepted_by: 'mem_2',
          revoked_at: null,
          declined_at: null,
        },
        {
          org_id: 'org_2',
          id: 'inv_2',
          email: 'b@example.com',
          role: 'admin',
          token_hash: 'hash_2',
          invited_by: 'mem_3',
          created_at: at,
          expires_at: at,
          accepted_at: null,
          accepted_by: null,
          revoked_at: null,
          declined_at: at,
        },
      ],
      connections: [
        {
          org_id: 'org_1',
          id: 'con_1',
          member_id: 'mem_1',
          user_id: 'usr_1',
          provider_id: 'github',
          status: 'pending',
          scopes: '["repo"]',
          state: 'state_1',
          state_expires_at: at,
          code_verifier: 'verifier',
          access_token: null,
          refresh_token: null,
          token_expires_at: null,
          token_version: 1,
          created_at: at,
          connected_at: null,
          last_checked_at: null,
          last_error: null,
        },
      ],
    }
    const raw = conn.db.withoutPlugins() as Kysely<any>
    for (const [table, values] of Object.entries(rows)) await raw.insertInto(table).values(values).execute()
    const read = async () =>
      Object.fromEntries(
        await Promise.all(
          Object.keys(rows).map(async (table) => {
            const found = await sql<Record<string, unknown>>`select * from ${sql.table(table)}`.execute(raw)
            // Both dialects read alike: times as ISO strings, JSON as text.
            const plain = found.rows.map((r) =>
              Object.fromEntries(
                Object.entries(r).map(([k, v]) => [
                  k,
                  v instanceof Date
                    ? v.toISOString()
                    : typeof v === 'object' && v !== null
                      ? JSON.stringify(v)
                      : v,
                ]),
              ),
            )
            return [
              table,
              plain.sort((a, b) => String(a.id ?? a.user_id).localeCompare(String(b.id ?? b.user_id))),
            ]
          }),
        ),
      )
    const before = await read()
    expect(before).toEqual(rows)

    expect((await migrator.migrateToLatest()).error).toBeUndefined()
    expect(await read()).toEqual(before)
    // A token still names its one invitation, and a state its one connection, without the workspace.
    const invitation = await raw
      .selectFrom('invitations')
      .select('id')
      .where('token_hash', '=', 'hash_2')
      .execute()
    expect(invitation).toEqual([{ id: 'inv_2' }])
    const connection = await raw
      .selectFrom('connections')
      .select('id')
      .where('state', '=', 'state_1')
      .execute()
    expect(connection).toEqual([{ id: 'con_1' }])
  })
})

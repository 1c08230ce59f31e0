import { connect, migrateToLatest } from '@workgraph/kysely'
import { type Kysely, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/** 0066_task_ranks: every task of a 0064 database gets a rank in its lists, in creation order. */
describeEachDatabase('migration 0066_task_ranks', (db: TestDatabase) => {
  let target: DatabaseTarget
  let conn: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    target = await db.empty()
    conn = await connect({
      url: target.url,
      ...(target.schema ? { schema: target.schema } : {}),
      poolSize: 1,
    })
  })
  afterAll(async () => {
    await conn.db.destroy()
    await target.drop()
  })

  it('ranks each board column, project and cycle by createdAt then id, byte-wise, uniquely', async () => {
    const migrations = await migrationsFor(conn.dialect)
    const migrator = new Migrator({
      db: conn.db,
      provider: { getMigrations: async () => migrations },
      ...(target.schema ? { migrationTableSchema: target.schema } : {}),
    })
    expect((await migrator.migrateTo('0064_keys_carry_org')).error).toBeUndefined()
    // Rows only: the teams, states, projects and cycles they name are not needed for this check.
    if (conn.dialect === 'postgres') await sql`set session_replication_role = replica`.execute(conn.db)
    else await sql`pragma foreign_keys = off`.execute(conn.db)
    const at = (second: number) => new Date(Date.UTC(2030, 0, 1, 10, 0, second)).toISOString()
    let number = 0
    const task = (id: string, created: number, extra: Record<string, unknown> = {}) => ({
      org_id: 'org_1',
      id,
      team_id: 'team_1',
      number: ++number,
      title: id,
      state_id: 'wfs_1',
      creator_id: 'mem_1',
      priority: 'none',
      created_at: at(created),
      updated_at: at(created),
      ...extra,
    })
    // 70 tasks in one column cross a rank's first length (62 keys `a0`…`az`, then `b00`): upper and
    // lower case letters and digits must sort byte-wise on Postgres too.
    const column = Array.from({ length: 70 }, (_, i) =>
      task(`task_c${String(i).padStart(2, '0')}`, i, { state_id: 'wfs_2' }),
    )
    const raw = conn.db.withoutPlugins() as Kysely<any>
    await raw
      .insertInto('tasks')
      .values([
        task('task_b', 5, { project_id: 'proj_1', cycle_id: 'cyc_1' }),
        task('task_a', 5, { project_id: 'proj_1' }),
        task('task_z', 1, { cycle_id: 'cyc_1', project_id: 'proj_1', state_id: 'wfs_3' }),
        task('task_gone', 0, { deleted_at: at(9) }),
        ...[...column].reverse(),
      ])
      .execute()

    await migrateToLatest(conn.db, conn.dialect, target.schema ? { schema: target.schema } : {})

    const order = async (list: string, rank: string, id: string) =>
      (
        await sql<{
          id: string
        }>`select id from tasks where ${sql.id(list)} = ${id} order by ${sql.id(rank)}`.execute(raw)
      ).rows.map((r) => r.id)
    expect(await order('state_id', 'board_rank', 'wfs_1')).toEqual(['task_gone', 'task_a', 'task_b'])
    expect(await order('state_id', 'board_rank', 'wfs_2')).toEqual(column.map((t) => t.id))
    expect(await order('project_id', 'project_rank', 'proj_1')).toEqual(['task_z', 'task_a', 'task_b'])
    expect(await order('cycle_id', 'cycle_rank', 'cyc_1')).toEqual(['task_z', 'task_b'])
    const outside = await raw
      .selectFrom('tasks')
      .select(['project_rank', 'cycle_rank'])
      .where('id', '=', 'task_gone')
      .executeTakeFirst()
    expect(outside).toEqual({ project_rank: null, cycle_rank: null })
    // Byte-wise whatever the database's collation (a language collation puts `a` before `B`).
    if (conn.dialect === 'postgres') {
      const columns = await sql<{
        collation_name: string
      }>`select collation_name from information_schema.columns
        where table_name = 'tasks' and column_name in ('board_rank', 'project_rank', 'cycle_rank')
        and table_schema = current_schema()`.execute(raw)
      expect(columns.rows.map((c) => c.collation_name)).toEqual(['C', 'C', 'C'])
    }
    // Two undeleted tasks of one list never share a rank.
    const [first] = (
      await sql<{ board_rank: string }>`select board_rank from tasks where id = 'task_a'`.execute(raw)
    ).rows
    await expect(
      sql`update tasks set board_rank = ${first!.board_rank} where id = 'task_b'`.execute(raw),
    ).rejects.toThrow()
  })
})

import { connect } from '@workgraph/kysely'
import { type Kysely, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/**
 * 0071_rule_triggers_system_comments: a comment's author may be null (the system's). SQLite rebuilds
 * the table: every comment, its revisions, its indexes and its search triggers stay.
 */
describeEachDatabase('migration 0071_rule_triggers_system_comments', (db: TestDatabase) => {
  let target: DatabaseTarget
  let conn: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    target = await db.empty()
    conn = await connect({ url: target.url, poolSize: 1 })
  })
  afterAll(async () => {
    await conn.db.destroy()
    await target.drop()
  })

  it('keeps every comment, revision, index and search trigger, and lets the author be null', async () => {
    const d: Kysely<any> = conn.db
    const migrator = new Migrator({
      db: d,
      provider: { getMigrations: async () => migrationsFor(conn.dialect) },
    })
    expect((await migrator.migrateTo('0069_tool_imports')).error).toBeUndefined()
    const indexes = async () =>
      conn.dialect === 'sqlite'
        ? (
            await sql<{ name: string }>`select name from sqlite_master where tbl_name = 'comments'
              and type in ('index', 'trigger') and sql is not null order by name`.execute(d)
          ).rows.map((r) => r.name)
        : (
            await sql<{ name: string }>`select indexname as name from pg_indexes
              where tablename = 'comments' and schemaname = current_schema() order by indexname`.execute(d)
          ).rows.map((r) => r.name)
    const before = await indexes()
    if (conn.dialect === 'postgres') await sql`set session_replication_role = replica`.execute(d)
    else await sql`pragma foreign_keys = off`.execute(d)
    const at = '2030-01-13T16:00:00.000Z'
    const row = (id: string, thread: string, body: string) => ({
      org_id: 'org_1',
      id,
      subject_type: 'task',
      subject_id: 'task_1',
      task_id: 'task_1',
      thread_id: thread,
      author_id: 'mem_1',
      body,
      created_at: at,
      updated_at: at,
    })
    await d
      .insertInto('comments')
      .values([row('cmt_1', 'cmt_1', 'Ship the beta'), row('cmt_2', 'cmt_1', 'Behind a flag')])
      .execute()
    await d
      .insertInto('comment_revisions')
      .values({
        org_id: 'org_1',
        id: 'crev_1',
        comment_id: 'cmt_1',
        body: 'Ship it',
        editor_id: 'mem_1',
        created_at: at,
        replaced_at: at,
      })
      .execute()
    // SQLite's search index is a table its triggers keep (Postgres indexes the rows themselves).
    const searched = async () =>
      conn.dialect === 'postgres'
        ? []
        : (await d.selectFrom('search_entries').select('body').orderBy('body').execute()).map((r) => r.body)
    const indexed = await searched()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()

    const comments = await d.selectFrom('comments').selectAll().orderBy('id').execute()
    expect(comments.map((c) => [c.id, c.threadId, c.authorId, c.automation, c.body])).toEqual([
      ['cmt_1', 'cmt_1', 'mem_1', null, 'Ship the beta'],
      ['cmt_2', 'cmt_1', 'mem_1', null, 'Behind a flag'],
    ])
    expect(await d.selectFrom('comment_revisions').select('id').execute()).toEqual([{ id: 'crev_1' }])
    expect(await indexes()).toEqual(before)
    expect(await searched()).toEqual(indexed)

    await d
      .insertInto('comments')
      .values({ ...row('cmt_3', 'cmt_3', 'Closed automatically'), author_id: null, automation: 'autoClose' })
      .execute()
    if (conn.dialect === 'sqlite') expect((await searched()).length).toBe(indexed.length + 1)
  })
})

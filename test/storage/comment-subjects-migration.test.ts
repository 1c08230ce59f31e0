import { connect, migrateToLatest } from '@workgraph/kysely'
import { type Kysely, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/** 0016_comment_subjects: every comment, kept body and reaction of a 0014 database survives, on tasks. */
describeEachDatabase('migration 0016_comment_subjects', (db: TestDatabase) => {
  let target: DatabaseTarget
  let conn: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    target = await db.empty()
    // One connection, so turning foreign keys off holds for every statement.
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

  it('moves the comments of a 0014 database onto task subjects without losing a row or a field', async () => {
    const migrations = await migrationsFor(conn.dialect)
    const migrator = new Migrator({
      db: conn.db,
      provider: { getMigrations: async () => migrations },
      ...(target.schema ? { migrationTableSchema: target.schema } : {}),
    })
    const upTo = await migrator.migrateTo('0014_linked_items_on_projects')
    expect(upTo.error).toBeUndefined()

    // Rows as 0007 wrote them; the tasks they name are not needed for this check.
    if (conn.dialect === 'postgres') await sql`set session_replication_role = replica`.execute(conn.db)
    else await sql`pragma foreign_keys = off`.execute(conn.db)
    const at = '2030-01-13T16:00:00.000Z'
    const comment = (id: string, threadId: string, extra: Record<string, unknown> = {}) => ({
      org_id: 'org_1',
      id,
      task_id: 'task_1',
      thread_id: threadId,
      author_id: 'mem_1',
      body: `body of ${id}`,
      created_at: at,
      updated_at: at,
      edited_at: null,
      deleted_at: null,
      resolved_at: null,
      resolved_by_id: null,
      ...extra,
    })
    const raw = conn.db.withoutPlugins() as Kysely<any>
    await raw
      .insertInto('comments')
      .values([
        comment('cmt_1', 'cmt_1', { resolved_at: at, resolved_by_id: 'mem_2', edited_at: at }),
        comment('cmt_2', 'cmt_1'),
        comment('cmt_3', 'cmt_3', { body: null, deleted_at: at }),
      ])
      .execute()
    await raw
      .insertInto('comment_revisions')
      .values({
        org_id: 'org_1',
        id: 'crev_1',
        comment_id: 'cmt_1',
        body: 'first',
        editor_id: 'mem_1',
        created_at: at,
        replaced_at: at,
      })
      .execute()
    await raw
      .insertInto('reactions')
      .values(
        [
          ['rct_1', 'task', 'task_1'],
          ['rct_2', 'comment', 'cmt_1'],
        ].map(([id, type, targetId]) => ({
          org_id: 'org_1',
          id,
          target_type: type,
          target_id: targetId,
          task_id: 'task_1',
          emoji: '👍',
          actor_id: 'mem_1',
          created_at: at,
        })),
      )
      .execute()

    await migrateToLatest(conn.db, conn.dialect, target.schema ? { schema: target.schema } : {})

    const comments = await conn.db.selectFrom('comments').selectAll().orderBy('id').execute()
    expect(comments.map((c) => [c.id, c.subjectType, c.subjectId, c.taskId, c.threadId, c.body])).toEqual([
      ['cmt_1', 'task', 'task_1', 'task_1', 'cmt_1', 'body of cmt_1'],
      ['cmt_2', 'task', 'task_1', 'task_1', 'cmt_1', 'body of cmt_2'],
      ['cmt_3', 'task', 'task_1', 'task_1', 'cmt_3', null],
    ])
    expect(comments[0]).toMatchObject({ resolvedById: 'mem_2', authorId: 'mem_1' })
    for (const c of comments) expect(new Date(c.createdAt as string).toISOString()).toBe(at)
    expect(new Date(comments[0]!.editedAt as string).toISOString()).toBe(at)
    expect(comments[2]!.deletedAt).not.toBeNull()
    const revisions = await conn.db.selectFrom('commentRevisions').selectAll().execute()
    expect(revisions.map((r) => [r.id, r.commentId, r.body])).toEqual([['crev_1', 'cmt_1', 'first']])
    const reactions = await conn.db.selectFrom('reactions').selectAll().orderBy('id').execute()
    expect(reactions.map((r) => [r.id, r.targetType, r.targetId, r.taskId, r.emoji])).toEqual([
      ['rct_1', 'task', 'task_1', 'task_1', '👍'],
      ['rct_2', 'comment', 'cmt_1', 'task_1', '👍'],
    ])
  })
})

import { connect } from '@workgraph/kysely'
import { type Kysely, Migrator, sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { migrationsFor } from '../support/migrations.ts'

/**
 * 0067_mail_delivery: the delivery each person chose while it was stored but not sent is kept, in
 * the new words; existing workspaces start mail at the end of their log (no mail about the past).
 */
describeEachDatabase('migration 0067_mail_delivery', (db: TestDatabase) => {
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

  it('maps the stored deliveries and starts each workspace at its end', async () => {
    const d: Kysely<any> = conn.db
    const migrator = new Migrator({
      db: d,
      provider: { getMigrations: async () => migrationsFor(conn.dialect) },
    })
    expect((await migrator.migrateTo('0064_keys_carry_org')).error).toBeUndefined()
    if (conn.dialect === 'postgres') await sql`set session_replication_role = replica`.execute(d)
    else await sql`pragma foreign_keys = off`.execute(d)
    const at = '2030-01-13T16:00:00.000Z'
    const chosen = { usr_1: 'immediate', usr_2: 'dailyDigest', usr_3: 'weeklyDigest', usr_4: 'off' }
    for (const [user_id, notification_delivery] of Object.entries(chosen)) {
      await d
        .insertInto('user_preferences')
        .values({ user_id, week_start: 'monday', date_format: 'iso', notification_delivery, updated_at: at })
        .execute()
    }
    await d.insertInto('org_event_counters').values({ org_id: 'org_1', last_seq: 42 }).execute()
    expect((await migrator.migrateToLatest()).error).toBeUndefined()

    const rows = await d
      .selectFrom('user_preferences')
      .select(['user_id', 'notification_delivery', 'digest_hour', 'mail_kinds'])
      .orderBy('user_id')
      .execute()
    expect(rows).toEqual([
      { userId: 'usr_1', notificationDelivery: 'instant', digestHour: 9, mailKinds: '{}' },
      { userId: 'usr_2', notificationDelivery: 'dailyDigest', digestHour: 9, mailKinds: '{}' },
      { userId: 'usr_3', notificationDelivery: 'dailyDigest', digestHour: 9, mailKinds: '{}' },
      { userId: 'usr_4', notificationDelivery: 'off', digestHour: 9, mailKinds: '{}' },
    ])
    const positions = (await d.selectFrom('mail_positions').selectAll().execute()) as Array<{
      orgId: string
      seq: number | string
    }>
    expect(positions.map((p) => ({ orgId: p.orgId, seq: Number(p.seq) }))).toEqual([
      { orgId: 'org_1', seq: 42 },
    ])
  })
})

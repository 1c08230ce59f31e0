/**
 * The notifier killed between reading events and writing their notifications: a child process
 * runs it over storage that SIGKILLs the process at the first notification it writes. Afterwards
 * nothing of that pass is in the database and the position has not moved; the restarted notifier
 * (here, the test server's engine on the same database) writes every notification exactly once.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { programArgs } from '../support/processes.ts'
import { newWorkspace } from '../support/workspace.ts'

const root = join(import.meta.dirname, '../..')

/** Runs test/support/notifier-crash.ts on the database and resolves with how it ended. */
function runDyingNotifier(target: { url: string; schema?: string }) {
  const child = spawn(process.execPath, programArgs('notifier-crash'), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: target.url,
      ...(target.schema ? { DATABASE_SCHEMA: target.schema } : {}),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout!.on('data', (chunk) => {
    out += chunk
  })
  return new Promise<{ signal: NodeJS.Signals | null; out: string }>((resolve) =>
    child.once('exit', (_code, signal) => resolve({ signal, out })),
  )
}

describeEachDatabase('the notifier killed mid-pass', (db: TestDatabase) => {
  let target: DatabaseTarget
  let server: Awaited<ReturnType<typeof startTestServer>>
  beforeAll(async () => {
    target = await db.fresh()
    server = await startTestServer({ ...db, fresh: async () => target })
  })
  afterAll(() => server.drop())

  it('writes every notification exactly once after a restart', { timeout: 120_000 }, async () => {
    const ws = await newWorkspace(server)
    const base = `/v1/orgs/${ws.orgId}`
    const bob = await ws.addMember('member')
    const carol = await ws.addMember('member')
    const tasks: string[] = []
    for (const title of ['One', 'Two', 'Three']) {
      tasks.push(
        (await ws.api.post(`${base}/tasks`, { teamId: ws.teamId, title, assigneeId: bob.memberId })).body.id,
      )
    }
    await ws.api.put(`${base}/tasks/${tasks[0]}/subscribers/${carol.memberId}`)
    await ws.api.post(`${base}/tasks/${tasks[0]}/comments`, { body: 'Started' })

    const notifications = () =>
      server.storage.db
        .selectFrom('notifications')
        .select(['recipientId', 'kind', 'recordId', 'eventId'])
        .where('orgId', '=', ws.orgId)
        .execute()
    const position = async () =>
      (
        await server.storage.db
          .selectFrom('notifierPositions')
          .select('seq')
          .where('orgId', '=', ws.orgId)
          .executeTakeFirst()
      )?.seq ?? null

    const before = await position()
    for (let kill = 0; kill < 2; kill++) {
      const crashed = await runDyingNotifier(target)
      expect(crashed.signal).toBe('SIGKILL')
      expect(crashed.out).not.toContain('survived')
      expect(await notifications()).toEqual([])
      expect(Number((await position()) ?? 0)).toBe(Number(before ?? 0))
    }

    const restarted = await server.engine.notify()
    expect(restarted.failed).toBe(0)
    const written = await notifications()
    const summary = written.map((n) => `${n.recipientId} ${n.kind} ${n.recordId}`).sort()
    expect(summary).toEqual(
      [
        ...tasks.map((id) => `${bob.memberId} assigned ${id}`),
        `${bob.memberId} commented ${tasks[0]}`,
        `${carol.memberId} commented ${tasks[0]}`,
      ].sort(),
    )
    expect(new Set(written.map((n) => `${n.recipientId} ${n.eventId}`)).size).toBe(written.length)

    // Another pass, and another crashing one, change nothing: everything is handled.
    expect((await server.engine.notify()).notifications).toBe(0)
    const again = await runDyingNotifier(target)
    expect(again.signal).toBeNull()
    expect(again.out).toContain('survived')
    expect(await notifications()).toHaveLength(written.length)
    const created = (await bob.api.get(`${base}/stream?limit=500&kinds=notification.created`)).body.data
    expect(created).toHaveLength(4)
  })
})

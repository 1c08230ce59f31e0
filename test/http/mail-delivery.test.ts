import { createSmtpMailer } from '@workgraph/server'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { DatabaseTarget, TestDatabase } from '../support/databases.ts'
import { startTestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace, type TestWorkspace } from '../support/workspace.ts'

/** What the SMTP server received: the envelope's recipients, the headers (lower-cased names) and the body. */
interface Received {
  to: string[]
  headers: Record<string, string>
  body: string
}

/** A real SMTP server on a loopback port: it keeps what it accepts and refuses the recipients in `refuse`. */
async function startSmtp() {
  const received: Received[] = []
  const refuse = new Set<string>()
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refuse.has(address.address.toLowerCase())) {
        const error = new Error('mailbox unavailable') as Error & { responseCode: number }
        error.responseCode = 550
        return callback(error)
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8')
        const split = raw.indexOf('\r\n\r\n')
        const headers: Record<string, string> = {}
        // Unfold continued header lines, then split name and value.
        for (const line of raw
          .slice(0, split)
          .replace(/\r\n[ \t]+/g, ' ')
          .split('\r\n')) {
          const colon = line.indexOf(':')
          headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim()
        }
        const body = raw
          .slice(split + 4)
          .replace(/=\r\n/g, '')
          .replace(/=3D/g, '=')
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), headers, body })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as { port: number }).port
  return {
    received,
    refuse,
    url: `smtp://127.0.0.1:${port}`,
    to: (email: string) => received.filter((m) => m.to.includes(email.toLowerCase())),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

type Server = Awaited<ReturnType<typeof startTestServer>>
const HOUR = 3_600_000
/** Noon UTC: 21:00 in Tokyo. */
const START = Date.parse('2030-03-04T12:00:00.000Z')

describeEachDatabase('mail delivery of notifications', (db) => {
  // Two engines (two servers) on one database and one SMTP server, as two instances of a deployment.
  let target: DatabaseTarget
  let smtp: Awaited<ReturnType<typeof startSmtp>>
  let mailer: ReturnType<typeof createSmtpMailer>
  let a: Server
  let b: Server
  let now = START
  beforeAll(async () => {
    smtp = await startSmtp()
    mailer = createSmtpMailer({ url: smtp.url, from: 'workgraph <noreply@example.com>' })
    target = await db.fresh()
    const shared: TestDatabase = { ...db, fresh: async () => ({ ...target, drop: async () => {} }) }
    a = await startTestServer(shared, { clock: () => new Date(now), mailer })
    b = await startTestServer(shared, { clock: () => new Date(now), mailer })
  }, 60_000)
  beforeEach(() => {
    now = START
  })
  afterAll(async () => {
    await a.drop()
    await b.drop()
    await target.drop()
    mailer.close()
    await smtp.close()
  })

  /**
   * Both instances run a mail pass, at once on Postgres, as their loops would (SQLite serves one
   * instance; there they take turns on the same file).
   */
  const bothMail = async () => {
    const passes =
      db.name === 'postgres'
        ? await Promise.all([a.engine.mail(), b.engine.mail()])
        : [await a.engine.mail(), await b.engine.mail()]
    return passes.reduce(
      (sum, p) => ({ sent: sum.sent + p.sent, queued: sum.queued + p.instant + p.digests }),
      {
        sent: 0,
        queued: 0,
      },
    )
  }
  async function assign(ws: TestWorkspace, memberId: string, title: string) {
    const res = await ws.api.post(`/v1/orgs/${ws.orgId}/tasks`, {
      teamId: ws.teamId,
      title,
      assigneeId: memberId,
    })
    expect(res.status, JSON.stringify(res.body)).toBe(201)
    await a.engine.notify()
    return res.body.id as string
  }
  const linkOf = (mail: Received) => /^<([^>]+)>$/.exec(mail.headers['list-unsubscribe']!)![1]!
  /** What a mail provider sends (RFC 8058 §3.2): a POST with no cookie, no token, no origin. */
  const oneClick = async (url: string) => {
    const res = await fetch(url, {
      method: 'POST',
      body: 'List-Unsubscribe=One-Click',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    return { status: res.status, body: await res.text() }
  }

  it('mails an instant notification once with two instances, with RFC 8058 one-click headers', async () => {
    const ws = await newWorkspace(a)
    const ada = await ws.addMember('member')
    await assign(ws, ada.memberId, 'Fix the login page')
    const first = await bothMail()
    const again = await bothMail()
    expect(first).toEqual({ sent: 1, queued: 1 })
    expect(again).toEqual({ sent: 0, queued: 0 })
    const mails = smtp.to(ada.user.email)
    expect(mails).toHaveLength(1)
    const mail = mails[0]!
    expect(mail.headers.subject).toBe('[Acme] ENG-1 Fix the login page')
    expect(mail.body).toContain('A task was assigned to you in Acme')
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')
    expect(linkOf(mail)).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mail\/unsubscribe\?token=/)
    // The owner acted: no notification, no mail.
    expect(smtp.to(ws.owner.user.email)).toHaveLength(0)
  })

  it('mails only the kinds the person keeps on, and nothing once delivery is off', async () => {
    const ws = await newWorkspace(a)
    const ada = await ws.addMember('member')
    const prefs = await ada.api.patch('/v1/me/preferences', { mailKinds: { assigned: false } })
    expect(prefs.status).toBe(200)
    expect(prefs.body).toMatchObject({
      notificationDelivery: 'instant',
      mailKinds: { assigned: false, mentioned: true },
    })
    await assign(ws, ada.memberId, 'Not by mail')
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    await ada.api.patch('/v1/me/preferences', { mailKinds: { assigned: true }, notificationDelivery: 'off' })
    await assign(ws, ada.memberId, 'Still not by mail')
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    expect(smtp.to(ada.user.email)).toHaveLength(0)
  })

  it('refuses a delivery or digest hour that does not exist, at its field', async () => {
    const ws = await newWorkspace(a)
    const bad = await ws.api.patch('/v1/me/preferences', { notificationDelivery: 'weeklyDigest' })
    expect(bad.status).toBe(400)
    expect(bad.body.errors[0].pointer).toBe('/body/notificationDelivery')
    const hour = await ws.api.patch('/v1/me/preferences', { digestHour: 24 })
    expect(hour.status).toBe(400)
    expect(hour.body.errors[0].pointer).toBe('/body/digestHour')
    const kind = await ws.api.patch('/v1/me/preferences', { mailKinds: { nothing: true } })
    expect(kind.status).toBe(400)
  })

  it('sends the daily digest at the local hour, once, with what was unread since the last one', async () => {
    const ws = await newWorkspace(a)
    const ada = await ws.addMember('member')
    expect((await ada.api.patch('/v1/me', { timeZone: 'Asia/Tokyo' })).status).toBe(200)
    const prefs = await ada.api.patch('/v1/me/preferences', {
      notificationDelivery: 'dailyDigest',
      digestHour: 9,
    })
    expect(prefs.body).toMatchObject({ notificationDelivery: 'dailyDigest', digestHour: 9 })
    await assign(ws, ada.memberId, 'Unread one')
    await assign(ws, ada.memberId, 'Read already')
    await assign(ws, ada.memberId, 'Unread two')
    const list = await ada.api.get(`/v1/orgs/${ws.orgId}/notifications`)
    const read = list.body.data.find((n: any) => n.summary.includes('Read already'))
    expect((await ada.api.post(`/v1/orgs/${ws.orgId}/notifications/${read.id}/read`, undefined)).status).toBe(
      200,
    )

    // 21:00 in Tokyo, then 08:30: not the hour; no instant mail either.
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    now = Date.parse('2030-03-04T23:30:00.000Z')
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    // 09:10 in Tokyo: one digest from two instances, and not again within the day.
    now = Date.parse('2030-03-05T00:10:00.000Z')
    expect(await bothMail()).toEqual({ sent: 1, queued: 1 })
    now = Date.parse('2030-03-05T00:50:00.000Z')
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    const [digest] = smtp.to(ada.user.email)
    expect(smtp.to(ada.user.email)).toHaveLength(1)
    expect(digest!.headers.subject).toBe('Your workgraph digest for 2030-03-05: 2 unread notifications')
    expect(digest!.body).toContain('ENG-1 Unread one')
    expect(digest!.body).toContain('ENG-3 Unread two')
    expect(digest!.body).not.toContain('Read already')
    expect(digest!.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click')

    // The next day's digest lists only what came after this one.
    now = Date.parse('2030-03-05T03:00:00.000Z')
    ws.api = a.as(
      await a.engine.tokens.issueAccessToken({ userId: ws.owner.user.id, scopes: ['work:write'] }),
    )
    await assign(ws, ada.memberId, 'Came later')
    now = Date.parse('2030-03-06T00:05:00.000Z')
    expect(await bothMail()).toEqual({ sent: 1, queued: 1 })
    const next = smtp.to(ada.user.email)[1]!
    expect(next.headers.subject).toBe('Your workgraph digest for 2030-03-06: 1 unread notification')
    expect(next.body).toContain('ENG-4 Came later')
    expect(next.body).not.toContain('Unread one')
  })

  it('unsubscribes in one click without a session, and refuses a forged or altered link', async () => {
    const ws = await newWorkspace(a)
    const ada = await ws.addMember('member')
    const bob = await ws.addMember('member')
    await assign(ws, ada.memberId, 'For Ada')
    await bothMail()
    const link = linkOf(smtp.to(ada.user.email)[0]!)
    const token = new URL(link).searchParams.get('token')!

    // Ada's signature on Bob's id, a changed signature, a made-up token: refused, nothing changes.
    const forgeries = [
      token.replace(ada.user.id, bob.user.id),
      `${token.slice(0, -2)}${token.endsWith('AA') ? 'BB' : 'AA'}`,
      `${bob.user.id}.all.${'A'.repeat(43)}`,
      '',
    ]
    for (const forged of forgeries) {
      const res = await oneClick(`${a.url}/mail/unsubscribe?token=${encodeURIComponent(forged)}`)
      expect(res.status, forged).toBe(400)
    }
    expect((await bob.api.get('/v1/me/preferences')).body.notificationDelivery).toBe('instant')
    expect((await ada.api.get('/v1/me/preferences')).body.notificationDelivery).toBe('instant')

    // Opening the link only shows a button: scanners that follow links unsubscribe nobody.
    const page = await fetch(link)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('method="post"')
    expect((await ada.api.get('/v1/me/preferences')).body.notificationDelivery).toBe('instant')

    const done = await oneClick(link)
    expect(done.status).toBe(200)
    expect(done.body).toContain('You are unsubscribed')
    expect((await ada.api.get('/v1/me/preferences')).body.notificationDelivery).toBe('off')
    await assign(ws, ada.memberId, 'No more mail')
    await assign(ws, bob.memberId, 'Bob still gets mail')
    await bothMail()
    expect(smtp.to(ada.user.email)).toHaveLength(1)
    expect(smtp.to(bob.user.email)).toHaveLength(1)
  })

  it('retries a refused recipient with backoff, gives up after the bound, and shows it to the operator', async () => {
    const ws = await newWorkspace(a)
    const ada = await ws.addMember('member')
    const eve = await ws.addMember('member')
    const readyz = async (): Promise<any> => ((await (await fetch(`${a.url}/readyz`)).json()) as any).mail
    const before = await readyz()
    smtp.refuse.add(ada.user.email.toLowerCase())
    smtp.refuse.add(eve.user.email.toLowerCase())
    await assign(ws, ada.memberId, 'Refused at first')
    await assign(ws, eve.memberId, 'Refused for good')

    expect(await bothMail()).toEqual({ sent: 0, queued: 2 })
    const retrying = await readyz()
    expect(retrying.pending).toBe(before.pending + 2)
    expect(retrying.retrying).toBe(before.retrying + 2)
    expect(retrying.lastError.error).toContain('550')
    // Not due before its backoff (a minute after the first failure).
    now += 30_000
    expect(await bothMail()).toEqual({ sent: 0, queued: 0 })
    expect(smtp.to(ada.user.email)).toHaveLength(0)

    // The server takes Ada's mail again: the next retry delivers it, once.
    smtp.refuse.delete(ada.user.email.toLowerCase())
    now += 31_000
    expect((await bothMail()).sent).toBe(1)
    expect(smtp.to(ada.user.email)).toHaveLength(1)
    expect(smtp.to(ada.user.email)[0]!.headers.subject).toBe('[Acme] ENG-1 Refused at first')

    // Eve's keeps failing: each retry waits twice as long, and after the eighth attempt it is given up.
    for (let i = 0; i < 6; i++) {
      now += 2 ** (i + 1) * 60_000 + 1_000
      expect((await bothMail()).sent).toBe(0)
    }
    const givenUp = await readyz()
    expect(givenUp.failed).toBe(before.failed + 1)
    expect(givenUp.pending).toBe(before.pending)
    now += 24 * HOUR
    await bothMail()
    expect(smtp.to(eve.user.email)).toHaveLength(0)
    expect((await readyz()).failed).toBe(before.failed + 1)
  })
})

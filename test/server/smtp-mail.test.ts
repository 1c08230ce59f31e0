/**
 * Invitations really sent: the server's SMTP transport delivers to a real SMTP server on loopback
 * (smtp-server), and the link in the delivered mail is the one that accepts the invitation.
 */
import type { AddressInfo } from 'node:net'
import { createUser } from '@workgraph/core'
import { createSmtpMailer } from '@workgraph/server'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/http.ts'
import { describeEachDatabase } from '../support/matrix.ts'
import { newWorkspace } from '../support/workspace.ts'

interface Delivered {
  from: string
  to: string[]
  raw: string
}

describeEachDatabase('invitation mail over SMTP', (db) => {
  const delivered: Delivered[] = []
  let smtp: SMTPServer
  let mailer: ReturnType<typeof createSmtpMailer>
  let server: TestServer & { drop(): Promise<void> }

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let raw = ''
        stream.on('data', (chunk) => {
          raw += chunk
        })
        stream.on('end', () => {
          delivered.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
          })
          callback()
        })
      },
    })
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve))
    const { port } = smtp.server.address() as AddressInfo
    mailer = createSmtpMailer({ url: `smtp://127.0.0.1:${port}`, from: 'workgraph <noreply@workgraph.test>' })
    server = await startTestServer(db, { mailer })
  })
  afterAll(async () => {
    await server?.drop()
    mailer?.close()
    await new Promise<void>((resolve) => smtp.close(() => resolve()))
  })

  it('delivers the invitation to the invitee, and its link accepts it', async () => {
    const ws = await newWorkspace(server)
    const email = `smtp.${Date.now()}@example.com`
    const sent = await ws.api.post(`/v1/orgs/${ws.orgId}/invitations`, { email, role: 'member' })
    expect(sent.status).toBe(201)

    const mail = delivered.find((m) => m.to.includes(email))!
    expect(mail.from).toBe('noreply@workgraph.test')
    expect(mail.raw).toMatch(/^Subject: .+/m)
    // Quoted-printable may wrap long lines with `=` soft breaks; undo them to read the link.
    const body = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
    const link = new URL(/(http:\/\/\S+\/invitations\/accept\?token=\S+)/.exec(body)![1]!)
    expect(link.origin).toBe(server.url)

    const invitee = await createUser(server.storage, { email, name: 'Ines' })
    const token = await server.engine.tokens.issueAccessToken({ userId: invitee.id, scopes: ['work:write'] })
    const accepted = await server.as(token).post('/v1/invitations/accept', {
      token: link.searchParams.get('token'),
    })
    expect(accepted.status).toBe(200)
    expect(accepted.body.orgId).toBe(ws.orgId)
  })
})

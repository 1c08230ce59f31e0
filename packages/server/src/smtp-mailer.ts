import type { Mailer } from '@workgraph/core'
import { createTransport } from 'nodemailer'

export interface SmtpMailerOptions {
  /** `smtp://user:pass@host:587` (STARTTLS when the server offers it) or `smtps://…:465` (TLS from the start). */
  url: string
  /** The sender, e.g. `workgraph <noreply@example.com>`. */
  from: string
}

/**
 * Sends the service's mail (invitations, notifications) over SMTP with nodemailer, a long-kept
 * library that does the protocol, TLS and encoding right. Plain text: the link on its own line.
 * A refused recipient or an unreachable server rejects the send, so the notification outbox retries it.
 */
export function createSmtpMailer(options: SmtpMailerOptions): Mailer & { close(): void } {
  const transport = createTransport(options.url)
  return {
    async send(message) {
      await transport.sendMail({
        from: options.from,
        to: message.to,
        subject: message.subject,
        text: `${message.text}\n\n${message.link}\n`,
        ...(message.headers ? { headers: message.headers } : {}),
      })
    },
    close: () => transport.close(),
  }
}

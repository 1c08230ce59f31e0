import type { Mailer } from '@workgraph/core'

/** A mail the service sent, as every test server in this process records it. */
export interface SentMail {
  to: string
  subject: string
  text: string
  link: string
}

const sent: SentMail[] = []

/** Records every message (the links that finish sign-ups, say), then hands it to `inner` if given. */
export function recordingMailer(inner?: Mailer): Mailer {
  return {
    async send(message) {
      sent.push(message)
      await inner?.send(message)
    },
  }
}

/** The latest mail to `email` whose link starts with `path` (after the origin). */
export function latestLink(email: string, path: string): string {
  for (let i = sent.length - 1; i >= 0; i--) {
    const mail = sent[i]!
    if (mail.to === email.toLowerCase() && new URL(mail.link).pathname === path) return mail.link
  }
  throw new Error(`no mail to ${email} with a ${path} link`)
}

/** Every mail sent to `email`, oldest first. */
export function mailsTo(email: string): SentMail[] {
  return sent.filter((m) => m.to === email.toLowerCase())
}

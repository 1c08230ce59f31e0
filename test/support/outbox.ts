import { existsSync, readFileSync } from 'node:fs'
import type { Mailer } from '@workgraph/core'

/** A mail the service sent, as every test server in this process records it. */
export interface SentMail {
  to: string
  subject: string
  text: string
  link: string
}

const sent: SentMail[] = []
/** Files where servers in other processes write their mail, one JSON line each (support/crash-server.ts). */
const files = new Set<string>()

/** Reads the mail a server in another process appends to `path` too. */
export function followMailFile(path: string): void {
  files.add(path)
}

function allMail(): SentMail[] {
  const fromFiles = [...files].flatMap((path) =>
    existsSync(path)
      ? readFileSync(path, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as SentMail)
      : [],
  )
  return [...fromFiles, ...sent]
}

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
  const mails = allMail()
  for (let i = mails.length - 1; i >= 0; i--) {
    const mail = mails[i]!
    if (mail.to === email.toLowerCase() && new URL(mail.link).pathname === path) return mail.link
  }
  throw new Error(`no mail to ${email} with a ${path} link`)
}

/** Every mail sent to `email`, oldest first. */
export function mailsTo(email: string): SentMail[] {
  return allMail().filter((m) => m.to === email.toLowerCase())
}

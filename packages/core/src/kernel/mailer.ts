/** One mail: plain text, the link on its own line after it. */
export interface MailMessage {
  to: string
  subject: string
  text: string
  link: string
  /** Extra headers (notification mail carries `List-Unsubscribe`, RFC 8058). */
  headers?: Record<string, string>
}

/**
 * What the service sends by mail: invitations, sign-up and password-reset links, and notifications
 * (docs/mail.md). Hosts plug in their own transport.
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>
  /** Where mail really goes, when that is not a mailbox; pages that say "check your mail" show it. */
  readonly note?: string
}

/** The default: prints the message, so a self-hosted server works without mail set up. */
export function createConsoleMailer(log: (line: string) => void = console.log): Mailer {
  return {
    note: 'This server prints mail in its log instead of sending it (no mail transport is set up): the link is there.',
    async send(message) {
      log(`[mail] to ${message.to}: ${message.subject}\n${message.text}\n${message.link}`)
    },
  }
}

import { appendFileSync } from 'node:fs'
import { createConsoleMailer, type Mailer } from '@workgraph/core'

/** The file beside a SQLite database where a server without a mail transport also keeps its mail. */
export function mailboxFileOf(databasePath: string): string {
  return `${databasePath}.mail.jsonl`
}

/**
 * Prints each message (as the default mailer does) and appends it as one JSON line to `file`,
 * readable by its owner only. With no mail transport set up, this is a development server's
 * mailbox: `workgraph seed --demo` on the same machine reads the sign-up and invitation links of
 * the teammates it creates there, as those people would read their mail. The file holds no more
 * than the log already does.
 */
export function createMailboxFileMailer(file: string, log: (line: string) => void = console.log): Mailer {
  const printed = createConsoleMailer(log)
  return {
    // The page that says "check your mail" shows the note: the file's path stays off it.
    ...(printed.note ? { note: printed.note } : {}),
    async send(message) {
      await printed.send(message)
      appendFileSync(file, `${JSON.stringify({ ...message, sentAt: new Date().toISOString() })}\n`, {
        mode: 0o600,
      })
    },
  }
}

/** What the service sends by mail: today, invitations. Hosts plug in their own transport. */
export interface Mailer {
  send(message: { to: string; subject: string; text: string; link: string }): Promise<void>
}

/** The default: prints the message, so a self-hosted server works without mail set up. */
export function createConsoleMailer(log: (line: string) => void = console.log): Mailer {
  return {
    async send(message) {
      log(`[mail] to ${message.to}: ${message.subject}\n${message.text}\n${message.link}`)
    },
  }
}

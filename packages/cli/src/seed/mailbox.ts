import { existsSync, readFileSync } from 'node:fs'
import { liveServerOn } from '@workgraph/kysely/instance-file'
import { CliError } from '../errors.ts'

/** Reads the links a development server mailed, as the people they went to would. */
export interface Mailbox {
  /** The newest link to `email` whose path is one of `paths` (`/sign-up/confirm`). */
  link(email: string, paths: string[]): Promise<string>
}

interface Mail {
  to: string
  link: string
}

/**
 * The mailbox file a server without a mail transport keeps beside its SQLite file
 * (`<file>.mail.jsonl`), when `origin` is the live server on this folder's database. `--mailbox`
 * names another (a server in another folder, or a host that writes one).
 */
export function localMailbox(origin: string, flag: string | undefined): string | undefined {
  if (flag) return flag
  const url = process.env.DATABASE_URL || './.workgraph/workgraph.db'
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return undefined
  const live = liveServerOn(url)
  return live && new URL(live.url).origin === origin && existsSync(`${url}.mail.jsonl`)
    ? `${url}.mail.jsonl`
    : undefined
}

/** The mail in a JSON-lines file, looked at again for a few seconds while a link has not arrived. */
export function fileMailbox(file: string): Mailbox {
  const read = (): Mail[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as Mail)
      : []
  return {
    async link(email, paths) {
      for (let attempt = 0; attempt < 50; attempt++) {
        const found = read()
          .reverse()
          .find((m) => m.to === email.toLowerCase() && paths.includes(new URL(m.link).pathname))
        if (found) return found.link
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      throw new CliError(`No mail to ${email} with a ${paths.join(' or ')} link arrived in ${file}`)
    },
  }
}

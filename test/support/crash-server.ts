/**
 * The server the crash test kills: the reference start-up (`startServer`) on the database named by
 * DATABASE_URL (and DATABASE_SCHEMA, DATABASE_DIRECT_URL on Postgres), on a fixed PORT so that tokens stay valid across
 * restarts, with rate limits lifted. Prints `ready` once it listens. With BASE_URL, it answers for
 * that public address (several instances behind one address); by default, for its own. With MAIL_LOG,
 * mail is appended to that file as JSON lines (support/outbox.ts reads it: sign-up links).
 */
import { appendFileSync } from 'node:fs'
import { startServer } from '@workgraph/server'

const mailLog = process.env.MAIL_LOG

const server = await startServer({
  databaseUrl: process.env.DATABASE_URL!,
  ...(process.env.DATABASE_DIRECT_URL ? { databaseDirectUrl: process.env.DATABASE_DIRECT_URL } : {}),
  ...(process.env.DATABASE_SCHEMA ? { databaseSchema: process.env.DATABASE_SCHEMA } : {}),
  port: Number(process.env.PORT),
  ...(process.env.BASE_URL ? { baseUrl: process.env.BASE_URL } : {}),
  config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
  ...(mailLog ? { mailer: { send: async (m) => appendFileSync(mailLog, `${JSON.stringify(m)}\n`) } } : {}),
})
console.log(`ready ${server.url}`)

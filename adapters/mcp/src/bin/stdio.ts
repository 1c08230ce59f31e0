#!/usr/bin/env node
/**
 * `workgraph-mcp`: the MCP server over stdio for desktop assistants, on the local database.
 *
 * The library part of @workgraph/mcp imports only core and the SDK; this bin is the one place that
 * wires storage (the Kysely adapter), as the h3 reference server does for HTTP.
 *
 *   WORKGRAPH_USER       email of the local person to act as (created on first use)   required
 *   WORKGRAPH_USER_NAME  their display name when created                             default: the email's local part
 *   DATABASE_URL         SQLite file or postgres:// URL       default: ./.workgraph/workgraph.db
 *   DATABASE_SCHEMA      Postgres schema                                               optional
 *   WORKGRAPH_SCOPES     space-separated scopes                                        default: work:read work:write agents:run
 *
 * stdout carries the protocol, so everything else (mail, errors) goes to stderr.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createConsoleMailer, createEngine, createUser, type Principal } from '@workgraph/core'
import { openStorage } from '@workgraph/kysely'
import { serveStdio } from '../stdio.ts'

const log = (line: string) => process.stderr.write(`${line}\n`)

async function main() {
  const email = process.env.WORKGRAPH_USER?.trim()
  if (!email) {
    log('workgraph-mcp: set WORKGRAPH_USER to the email of the person this server acts as.')
    process.exit(2)
  }
  const url = process.env.DATABASE_URL || './.workgraph/workgraph.db'
  if (!/^postgres(ql)?:\/\//.test(url) && url !== ':memory:') mkdirSync(dirname(url), { recursive: true })
  const storage = await openStorage({
    url,
    ...(process.env.DATABASE_SCHEMA ? { schema: process.env.DATABASE_SCHEMA } : {}),
  })
  const engine = await createEngine({
    storage,
    config: { baseUrl: process.env.BASE_URL ?? 'http://localhost' },
    mailer: createConsoleMailer(log),
  })
  const user =
    (await storage.read((s) => s.users.getByEmail(email))) ??
    (await createUser(storage, { email, name: process.env.WORKGRAPH_USER_NAME ?? email.split('@')[0]! }))
  const principal: Principal = {
    userId: user.id,
    scopes: new Set(
      (process.env.WORKGRAPH_SCOPES ?? 'work:read work:write agents:run').split(/\s+/).filter(Boolean),
    ),
    clientId: 'workgraph-mcp-stdio',
  }
  const mcp = await serveStdio(engine, principal, { onError: (e) => log(`workgraph-mcp: ${String(e)}`) })
  const stop = async () => {
    await mcp.close()
    await engine.hub.close()
    await storage.close()
    process.exit(0)
  }
  process.stdin.on('close', stop)
  process.on('SIGTERM', stop)
  process.on('SIGINT', stop)
}

main().catch((error) => {
  log(`workgraph-mcp: ${error instanceof Error ? error.message : String(error)}`)
  process.exit(1)
})

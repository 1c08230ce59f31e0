#!/usr/bin/env node
/**
 * `workgraph-mcp`: the MCP server over stdio for desktop assistants, on the local database.
 *
 * The library part of @workgraph/mcp imports only core and the SDK; this bin is the one place that
 * wires storage (the Kysely adapter), as the h3 reference server does for HTTP.
 *
 *   WORKGRAPH_USER       email of the local person to act as                             required
 *   WORKGRAPH_USER_NAME  creates that person with this display name if there is none  optional
 *   DATABASE_URL         SQLite file or postgres:// URL       default: ./.workgraph/workgraph.db
 *   DATABASE_SCHEMA      Postgres schema                                               optional
 *   WORKGRAPH_SCOPES     space-separated scopes                                        default: work:read work:write agents:run
 *
 * stdout carries the protocol, so everything else (mail, errors) goes to stderr.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { createConsoleMailer, createEngine, createUser, type Principal } from '@workgraph/core'
import { explainDatabaseError, maskUrl, openStorage } from '@workgraph/kysely'
import { serveStdio } from '../stdio.ts'
import { refuseToStart } from './refuse.ts'

const log = (line: string) => process.stderr.write(`${line}\n`)
const DEFAULT_DATABASE_URL = './.workgraph/workgraph.db'

async function main() {
  const email = process.env.WORKGRAPH_USER?.trim()
  if (!email)
    return refuseToStart(
      'WORKGRAPH_USER is not set: set it to the email of the person this server acts as (WORKGRAPH_USER=ada@example.com in the host’s MCP server settings).',
    )
  const url = process.env.DATABASE_URL || DEFAULT_DATABASE_URL
  // Only the default's directory is made: a configured path under a missing one is refused as a typo.
  if (url === DEFAULT_DATABASE_URL) mkdirSync(dirname(url), { recursive: true })
  let storage: Awaited<ReturnType<typeof openStorage>>
  try {
    storage = await openStorage({
      url,
      ...(process.env.DATABASE_SCHEMA ? { schema: process.env.DATABASE_SCHEMA } : {}),
    })
  } catch (error) {
    const explained = explainDatabaseError(error, url)
    if (!explained) throw error
    return refuseToStart(explained)
  }
  const known = await storage.read((s) => s.users.getByEmail(email))
  const name = process.env.WORKGRAPH_USER_NAME?.trim()
  if (!known && !name) {
    await storage.close()
    return refuseToStart(
      `WORKGRAPH_USER=${email} is no person in ${maskUrl(url)}: set it to the email you signed up with, ` +
        'or also set WORKGRAPH_USER_NAME="Your Name" to create this person there.',
    )
  }
  const engine = await createEngine({
    storage,
    config: { baseUrl: process.env.BASE_URL ?? 'http://localhost' },
    mailer: createConsoleMailer(log),
  })
  const user = known ?? (await createUser(storage, { email, name: name! }))
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
  refuseToStart(`could not start: ${error instanceof Error ? error.message : String(error)}`, 1)
})

/**
 * The floor bench/list-vs-limit.ts measures the server against: a node:http handler for one route,
 * `GET /v1/orgs/{orgId}/tasks?limit=50`, written the way one would by hand. It verifies the bearer token
 * with jose against the server's public keys (issuer, audiences, ES256, `at+jwt`, required claims, as
 * the server does) once per token, keeping its subject until it expires as the server does, then runs, for the token's subject, the statements the server ran for that
 * reader's page (recorded by the bench: the org with the membership, teams, grants and the token's
 * revocation check, the expansion of program and initiative grants when there are any, the scoped
 * keyset page, then the page's blocked flags, labels and custom field values in one
 * statement), on its own connection with the same
 * driver, and maps the rows straight to the list's JSON.
 */
import { createHmac } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { sharedSecret } from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'
import SQLite from 'better-sqlite3'
import { createLocalJWKSet, jwtVerify } from 'jose'
import pg from 'pg'
import { pgUrl } from './support.ts'

/** One statement the server ran for a reader's page, as Kysely compiled it. */
export interface Recorded {
  sql: string
  parameters: readonly unknown[]
}
/** A reader's statements in the server's order, which of them is the page, and the cursor's scope digest. */
export interface Plan {
  statements: Recorded[]
  page: number
  cursorScope: string
}
type Row = Record<string, unknown>
/** Runs one statement; the handler's only contact with the driver. */
type Run = (sql: string, parameters: readonly unknown[]) => Promise<Row[]>

const LIMIT = 50

export async function startHandwritten(
  server: RunningServer,
  schema: string,
  plans: Map<string, Plan>,
): Promise<{ url: string; close: () => Promise<void> }> {
  const { engine, storage } = server
  const { run, close } = await driver(server, schema)
  // The server's cursor secret: the next page's cursor is its body (the list's scope digest, as the
  // server's cursor names it, the sort value and the id) signed with HMAC-SHA256, as the server signs.
  const key = Buffer.from(await sharedSecret(storage, 'cursor-key', () => new Date()), 'base64url')
  const cursor = (s: string, v: string, i: string) => {
    const body = Buffer.from(JSON.stringify({ s, v, i })).toString('base64url')
    return `${body}.${createHmac('sha256', key).update(body).digest('base64url')}`
  }
  const jwks = createLocalJWKSet(await engine.tokens.jwks())
  const issuer = engine.tokens.issuer
  const audience = [...engine.tokens.audiences]

  // The statements after the page take the page's ids as parameters (once per branch of a union):
  // where they sit in the recorded parameters (the recorded page is the same page, so its ids mark
  // the spots).
  const prepared = new Map<string, { plan: Plan; idsAt: Map<number, number[]> }>()
  for (const [userId, plan] of plans) {
    const page = plan.statements[plan.page]!
    const ids = (await run(page.sql, page.parameters)).map((r) => r.id)
    const idsAt = new Map<number, number[]>()
    for (let i = plan.page + 1; i < plan.statements.length; i++) {
      const spots = plan.statements[i]!.parameters.flatMap((p, at) => (p === ids[0] ? [at] : []))
      if (spots.length > 0) idsAt.set(i, spots)
    }
    prepared.set(userId, { plan, idsAt })
  }
  const prefix = /^\/v1\/orgs\/([^/]+)\/tasks$/
  // A token's verified claims kept until it expires, as the server keeps them (revocation is still
  // checked per request, in the standing read's `revoked` row).
  const verified = new Map<string, { sub: string; exp: number }>()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://localhost')
    if (req.method !== 'GET' || !prefix.test(url.pathname) || url.searchParams.get('limit') !== String(LIMIT))
      return send(res, 404, { title: 'Not found' })
    const header = req.headers.authorization ?? ''
    if (!header.startsWith('Bearer ')) return send(res, 401, { title: 'Unauthenticated' })
    let sub: string
    const token = header.slice(7)
    const known = verified.get(token)
    if (known && Date.now() / 1000 < known.exp) sub = known.sub
    else {
      try {
        const { payload } = await jwtVerify(token, jwks, {
          issuer,
          audience,
          algorithms: ['ES256'],
          typ: 'at+jwt',
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
        })
        sub = payload.sub!
        verified.set(token, { sub, exp: payload.exp! })
      } catch {
        return send(res, 401, { title: 'Unauthenticated' })
      }
    }
    const reader = prepared.get(sub)
    if (!reader) return send(res, 403, { title: 'Forbidden' })
    const { plan, idsAt } = reader
    const { statements } = plan
    // Membership, grants and the token's revocation (a `revoked` row of the standing read): as the
    // server, before the page.
    for (let i = 0; i < plan.page; i++) {
      const rows = await run(statements[i]!.sql, statements[i]!.parameters)
      if (rows.some((r) => r.kind === 'revoked')) return send(res, 401, { title: 'Unauthenticated' })
    }
    const rows = await run(statements[plan.page]!.sql, statements[plan.page]!.parameters)
    const ids = rows.map((r) => r.id as string)
    const tasks = rows.map(toTask)
    const byId = new Map(tasks.map((t) => [t.id, t]))
    for (let i = plan.page + 1; i < statements.length; i++) {
      const parameters = [...statements[i]!.parameters]
      for (const at of idsAt.get(i) ?? []) parameters.splice(at, ids.length, ...ids)
      const sql = statements[i]!.sql
      // One statement completes the page: its rows say what they are (blocked flag, label, field value).
      for (const r of await run(sql, parameters)) {
        if (r.kind === 'blocked') byId.get(r.task_id as string)!.isBlocked = true
        else if (r.kind === 'label')
          (byId.get(r.task_id as string)!.labelIds as string[]).push(r.ref as string)
        // This world sets no custom field; a handler for one that does would map them here.
        else throw new Error(`unexpected row from ${sql}`)
      }
    }
    const data = tasks.slice(0, LIMIT)
    const last = data[data.length - 1]
    const nextCursor =
      tasks.length > LIMIT && last ? cursor(plan.cursorScope, last.createdAt as string, last.id) : null
    send(res, 200, { data, nextCursor })
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { title: String(error) }))
  })
  http.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    close: async () => {
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
      await close()
    },
  }
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': status === 200 ? 'application/json' : 'application/problem+json',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

/** SQLite keeps timestamps as ISO text already; Postgres hands back a Date. */
const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : (v as string | null))

/** A row of the page query (snake_case columns, the team key and state category joined) as the list's JSON. */
function toTask(r: Row): Row & { id: string } {
  return {
    id: r.id as string,
    orgId: r.org_id,
    teamId: r.team_id,
    key: `${r.team_key}-${r.number}`,
    number: r.number,
    title: r.title,
    description: r.description,
    stateId: r.state_id,
    stateCategory: r.state_category,
    assigneeId: r.assignee_id,
    creatorId: r.creator_id,
    priority: r.priority,
    estimate: r.estimate === null ? null : Number(r.estimate),
    dueDate: r.due_date,
    startDate: r.start_date,
    parentId: r.parent_id,
    isBlocked: false,
    createdAt: iso(r.created_at),
    updatedAt: iso(r.updated_at),
    startedAt: iso(r.started_at),
    completedAt: iso(r.completed_at),
    canceledAt: iso(r.canceled_at),
    archivedAt: iso(r.archived_at),
    cycleId: r.cycle_id,
    projectId: r.project_id,
    milestoneId: r.milestone_id,
    labelIds: [],
    fields: {},
  }
}

/** Its own connection with the server's driver: better-sqlite3 with statements prepared once, or a pg pool of 10. */
async function driver(
  server: RunningServer,
  schema: string,
): Promise<{ run: Run; close: () => Promise<void> }> {
  if (server.storage.dialect === 'postgres') {
    const pool = new pg.Pool({ connectionString: pgUrl, max: 10, options: `-c search_path=${schema}` })
    return {
      run: async (sql, parameters) => (await pool.query(sql, parameters as unknown[])).rows as Row[],
      close: () => pool.end(),
    }
  }
  const file = (
    await server.storage.db.executeQuery<{ file: string }>({
      sql: 'pragma database_list',
      parameters: [],
      query: null,
    } as never)
  ).rows[0]!.file
  const database = new SQLite(file)
  database.pragma('journal_mode = WAL')
  database.pragma('busy_timeout = 5000')
  const statements = new Map<string, SQLite.Statement>()
  return {
    run: async (sql, parameters) => {
      let statement = statements.get(sql)
      if (!statement) {
        statement = database.prepare(sql)
        statements.set(sql, statement)
      }
      return statement.all(...(parameters as unknown[])) as Row[]
    },
    close: async () => {
      database.close()
    },
  }
}

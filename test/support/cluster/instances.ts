/** The server instances of the cluster test, and the small tools its steps share. */
import type { ChildProcess } from 'node:child_process'
import pg from 'pg'
import { POSTGRES_DIRECT_URL } from '../databases.ts'
import { startServerBin } from '../processes.ts'

export interface Instance {
  child: ChildProcess
  port: number
  /** Everything it printed on stdout so far (the banner, mail, debug lines of its background passes). */
  output(): string
}

/** The reference server's bin in `dir` with `env`, its stdout kept. */
export async function startInstance(dir: string, env: Record<string, string>): Promise<Instance> {
  const { child, banner } = await startServerBin(dir, env)
  let out = banner
  child.stdout!.on('data', (chunk) => (out += chunk))
  return { child, port: Number(env.PORT), output: () => out }
}

/** A request through the balancer: status, headers, and the body parsed when it is JSON. */
export async function call(
  base: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  // HAProxy's own answers (502, 503) are HTML.
  const json = res.headers.get('content-type')?.includes('json')
  return { status: res.status, headers: res.headers, body: text && json ? JSON.parse(text) : text || null }
}

/** Runs one statement on the Postgres server's maintenance connection (never through a pooler). */
export async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_DIRECT_URL })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

/** Polls `check` every 100 ms until it holds, for at most `seconds` (30 by default). */
export async function until(check: () => Promise<boolean>, what: string, seconds = 30): Promise<void> {
  for (let i = 0; i < seconds * 10; i++) {
    if (await check().catch(() => false)) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`waited ${seconds} s for ${what}`)
}

/**
 * Statements per write: sends one `tasks.create` (with a `projectId`, two labels and a custom field
 * value, and an Idempotency-Key) through the reference server over HTTP and lists every SQL statement
 * the database driver ran while the request was in flight, transaction control included. Counted at
 * the driver (better-sqlite3's statement methods, pg's `Client#query`), below Kysely, so nothing
 * that reaches the database is missed. The create is sent `--repeat=3` times (default) after one
 * unrecorded warm-up, and the list of the last is printed with the count of each; every one must
 * answer 201. `--postgres` for Postgres.
 */
import { createUser } from '@workgraph/core'
import SQLite from 'better-sqlite3'
import pg from 'pg'
import { failures, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const repeat = Number(arg('repeat') ?? 3)

let recording = false
const recorded: string[] = []
const record = (sql: unknown) => {
  if (recording)
    recorded.push(typeof sql === 'string' ? sql : String((sql as { text?: string })?.text ?? sql))
}

// better-sqlite3: every statement runs through one of these methods of its Statement prototype.
{
  const probe = new SQLite(':memory:')
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, unknown>
  for (const method of ['run', 'get', 'all', 'iterate']) {
    const original = proto[method] as (...args: unknown[]) => unknown
    proto[method] = function (this: { source: string }, ...args: unknown[]) {
      record(this.source)
      return original.apply(this, args)
    }
  }
  probe.close()
}
// pg: the pool's queries go through Client#query too.
{
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  proto.query = function (this: unknown, ...args: unknown[]) {
    record(args[0])
    return original.apply(this, args)
  }
}

await runBench('statements', async ({ engine, storage, url }) => {
  const owner = await createUser(storage, { email: 'owner@example.com', name: 'Owner' })
  const token = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const send = async (method: string, path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    })
    const json = (await res.json()) as { id: string }
    if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json
  }
  const org = await send('POST', '/v1/orgs', { name: 'Statements' })
  const team = await send('POST', `/v1/orgs/${org.id}/teams`, { name: 'Team', key: 'ST' })
  const project = await send('POST', `/v1/orgs/${org.id}/projects`, { name: 'Project', teamIds: [team.id] })
  const labels = [
    await send('POST', `/v1/orgs/${org.id}/labels`, { name: 'bug' }),
    await send('POST', `/v1/orgs/${org.id}/labels`, { name: 'ui' }),
  ]
  const field = await send('POST', `/v1/orgs/${org.id}/custom-fields`, { name: 'Customer', type: 'text' })
  const create = (n: number) =>
    send(
      'POST',
      `/v1/orgs/${org.id}/tasks`,
      {
        teamId: team.id,
        title: `Counted ${n}`,
        projectId: project.id,
        labelIds: labels.map((l) => l.id),
        fields: { [field.id]: 'Acme' },
      },
      { 'idempotency-key': `statements-${n}` },
    )
  await create(0)
  let last: string[] = []
  const counts: number[] = []
  for (let n = 1; n <= repeat; n++) {
    recorded.length = 0
    recording = true
    try {
      await create(n)
    } finally {
      recording = false
    }
    last = [...recorded]
    counts.push(last.length)
  }
  const control = (s: string) => /^\s*(begin|commit|rollback|savepoint|release)\b/i.test(s)
  console.log(`${storage.dialect}: one tasks.create (projectId, 2 labels, 1 field value, Idempotency-Key)`)
  last.forEach((s, i) => {
    console.log(`${String(i + 1).padStart(2)}. ${s.replace(/\s+/g, ' ').slice(0, 220)}`)
  })
  const data = last.filter((s) => !control(s)).length
  console.log(
    `\n${last.length} statements (${data} without transaction control); per request: ${counts.join(', ')}`,
  )
  if (new Set(counts).size !== 1) failures.push(`the count varied between requests: ${counts.join(', ')}`)
})

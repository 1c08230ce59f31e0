/**
 * Load: 200 concurrent clients (ten people, twenty clients each) send a mix of reads and writes
 * for 60 s through HTTP to the reference server: list tasks (40%), get a task (20%), create one
 * (15%), rename one (15%), comment (10%). Fails on any 5xx or failed request; reports throughput,
 * p50/p99 per kind, and the process's heap at rest before, right after, and after 10 s idle.
 * Usage: `pnpm bench:load [--postgres] [--clients=200] [--seconds=60]`.
 */
import { availableParallelism } from 'node:os'
import { createUser, newId, type OrgId, type RawInput, type TeamId } from '@workgraph/core'
import type { RunningServer } from '@workgraph/server'
import { failures, fmt, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const CLIENTS = Number(arg('clients') ?? 200)
const SECONDS = Number(arg('seconds') ?? 60)
const PEOPLE = 10

const gc = (globalThis as { gc?: () => void }).gc
const heapAtRest = () => {
  gc?.()
  gc?.()
  return process.memoryUsage().heapUsed / 2 ** 20
}

await runBench('load', run)

async function run({ url, engine, storage }: RunningServer): Promise<void> {
  if (!gc) throw new Error('run with --expose-gc (pnpm bench:load does)')
  console.log(
    `${storage.dialect}, node ${process.version}, ${availableParallelism()} cores, ${CLIENTS} clients`,
  )
  const owner = await createUser(storage, { email: 'load-owner@example.com', name: 'Owner' })
  const ownerToken = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal = await engine.tokens.verifyAccessToken(ownerToken)
  const call = async <T>(id: string, input: RawInput) =>
    (await engine.execute(id, input, principal)).body as T
  const org = await call<{ id: OrgId }>('orgs.create', { body: { name: 'Load' } })
  const team = await call<{ id: TeamId }>('teams.create', {
    params: { orgId: org.id },
    body: { name: 'Load', key: 'LOD' },
  })
  // Ten members (admins, so every write is allowed) with a token each.
  const tokens: string[] = [ownerToken]
  for (let i = 1; i < PEOPLE; i++) {
    const user = await createUser(storage, { email: `load${i}@example.com`, name: `Person ${i}` })
    const now = new Date().toISOString()
    await storage.transaction((s) =>
      s.members.insert({
        id: newId('MemberId'),
        orgId: org.id,
        userId: user.id,
        kind: 'person',
        role: 'admin',
        status: 'active',
        createdAt: now,
        updatedAt: now,
      }),
    )
    tokens.push(
      await engine.tokens.issueAccessToken({ userId: user.id, scopes: ['work:read', 'work:write'] }),
    )
  }
  const taskIds: string[] = []
  for (let i = 0; i < 200; i++)
    taskIds.push(
      (
        await call<{ id: string }>('tasks.create', {
          params: { orgId: org.id },
          body: { teamId: team.id, title: `seed ${i}` },
        })
      ).id,
    )

  const base = `${url}/v1/orgs/${org.id}`
  const latencies: Record<string, number[]> = { list: [], get: [], create: [], rename: [], comment: [] }
  const statuses = new Map<number, number>()
  const before = heapAtRest()
  const deadline = performance.now() + SECONDS * 1000
  let n = 0

  async function client(c: number): Promise<void> {
    const token = tokens[c % tokens.length]!
    while (performance.now() < deadline) {
      const roll = Math.random()
      const taskId = taskIds[Math.floor(Math.random() * taskIds.length)]!
      const [kind, method, path, body]: [string, string, string, unknown?] =
        roll < 0.4
          ? ['list', 'GET', '/tasks?limit=50']
          : roll < 0.6
            ? ['get', 'GET', `/tasks/${taskId}`]
            : roll < 0.75
              ? ['create', 'POST', '/tasks', { teamId: team.id, title: `c${c} ${n++}` }]
              : roll < 0.9
                ? ['rename', 'PATCH', `/tasks/${taskId}`, { title: `r${c} ${n++}` }]
                : ['comment', 'POST', `/tasks/${taskId}/comments`, { body: `comment ${n++}` }]
      const started = performance.now()
      try {
        const res = await fetch(`${base}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
        })
        const json = (await res.json()) as { id?: string }
        latencies[kind]!.push(performance.now() - started)
        statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
        if (res.status >= 500) failures.push(`${kind}: ${res.status} ${JSON.stringify(json)}`)
        if (kind === 'create' && json.id) taskIds.push(json.id)
      } catch (error) {
        failures.push(`${kind}: ${(error as Error).message}`)
      }
    }
  }

  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)))
  const after = heapAtRest()
  await new Promise((r) => setTimeout(r, 10_000))
  const idle = heapAtRest()

  const total = Object.values(latencies).reduce((sum, l) => sum + l.length, 0)
  console.log(`${total} requests in ${SECONDS} s: ${(total / SECONDS).toFixed(0)} req/s`)
  console.log(`statuses: ${[...statuses].map(([s, c]) => `${s}×${c}`).join(', ')}`)
  console.log('kind      requests  p50 / p99 ms')
  for (const [kind, values] of Object.entries(latencies))
    if (values.length > 0)
      console.log(`${kind.padEnd(9)} ${String(values.length).padStart(8)}  ${fmt(values)}`)
  console.log(
    `heap at rest: ${before.toFixed(1)} MiB before, ${after.toFixed(1)} MiB after, ${idle.toFixed(1)} MiB after 10 s idle`,
  )
  // Back to its baseline: what the load left behind (caches of bounded size aside) is garbage.
  if (idle > before * 1.25 + 8)
    failures.push(`heap did not return to baseline: ${before.toFixed(1)} → ${idle.toFixed(1)} MiB`)
}

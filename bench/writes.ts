/**
 * Writes: `tasks.create` over HTTP (events and history included, as every write), with one and with
 * eight clients in flight, in interleaved rounds on one team. Reports creates per second and
 * p50/p99 latency per round and the median over rounds. `--rounds=3`, `--count=400` (per round and
 * concurrency), `--postgres`. Profile the server with `node --cpu-prof` on this script (the server
 * runs in this process; the load runs on a worker thread).
 */
import type { OrgId, TeamId } from '@workgraph/core'
import { createUser } from '@workgraph/core'
import { failures, load, percentile, runBench } from './support.ts'

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]
const rounds = Number(arg('rounds') ?? 3)
const count = Number(arg('count') ?? 400)

await runBench('writes', async ({ engine, storage, url }) => {
  const owner = await createUser(storage, { email: 'owner@example.com', name: 'Owner' })
  const token = await engine.tokens.issueAccessToken({
    userId: owner.id,
    scopes: ['work:read', 'work:write'],
  })
  const principal = await engine.tokens.verifyAccessToken(token)
  const org = (await engine.execute('orgs.create', { body: { name: 'Writes' } }, principal)).body as {
    id: OrgId
  }
  const team = (
    await engine.execute(
      'teams.create',
      { params: { orgId: org.id }, body: { name: 'Team', key: 'WR' } },
      principal,
    )
  ).body as { id: TeamId }
  const job = (concurrency: number, n: number) => ({
    url: `${url}/v1/orgs/${org.id}/tasks`,
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      teamId: team.id,
      title: 'Write {{n}}',
      description: 'Measured by bench/writes.ts',
    }),
    count: n,
    concurrency,
    expect: 201,
  })
  await load(job(4, 100)) // warm-up
  const results: Record<number, { rate: number; p50: number; p99: number }[]> = { 1: [], 8: [] }
  for (let r = 0; r < rounds; r++) {
    for (const concurrency of [1, 8]) {
      const result = await load(job(concurrency, count))
      failures.push(...result.failures.slice(0, 5))
      const rate = (result.latencies.length / result.elapsedMs) * 1000
      results[concurrency]!.push({
        rate,
        p50: percentile(result.latencies, 0.5),
        p99: percentile(result.latencies, 0.99),
      })
      console.log(
        `round ${r + 1}, ${concurrency} client(s): ${rate.toFixed(0)} creates/s, p50 ${percentile(result.latencies, 0.5).toFixed(2)} ms, p99 ${percentile(result.latencies, 0.99).toFixed(2)} ms`,
      )
    }
  }
  console.log(`\n${storage.dialect}: median over ${rounds} rounds of ${count} creates`)
  for (const c of [1, 8]) {
    const rs = results[c]!
    console.log(
      `| ${c} | ${percentile(
        rs.map((x) => x.rate),
        0.5,
      ).toFixed(0)} creates/s | p50 ${percentile(
        rs.map((x) => x.p50),
        0.5,
      ).toFixed(2)} ms | p99 ${percentile(
        rs.map((x) => x.p99),
        0.5,
      ).toFixed(2)} ms |`,
    )
  }
})

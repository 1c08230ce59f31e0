/**
 * `bench:hub -- --explain`: where one call of each hub read spends its time, statement by statement.
 * Every statement the call runs is recorded at Kysely's executor (with its real values) and timed;
 * the statements are grouped by SQL text and the costliest are printed with their count, total time
 * and plan (SQLite `EXPLAIN QUERY PLAN`, Postgres `EXPLAIN (ANALYZE, BUFFERS, COSTS OFF)`).
 */
import type { RunningServer } from '@workgraph/server'
import { postgres } from './support.ts'

interface Recorded {
  sql: string
  parameters: readonly unknown[]
  ms: number
}

export async function explainReads(
  storage: RunningServer['storage'],
  reads: Array<[string, () => Promise<unknown>]>,
  top = 4,
): Promise<void> {
  let recorded: Recorded[] = []
  let recording = false
  const executor = Object.getPrototypeOf(Object.getPrototypeOf(storage.db.getExecutor())) as {
    executeQuery: (
      query: { sql: string; parameters: readonly unknown[] },
      ...rest: unknown[]
    ) => Promise<unknown>
  }
  const execute = executor.executeQuery
  executor.executeQuery = async function (this: unknown, query, ...rest) {
    const t0 = performance.now()
    try {
      return await execute.call(this, query, ...rest)
    } finally {
      if (recording)
        recorded.push({ sql: query.sql, parameters: [...query.parameters], ms: performance.now() - t0 })
    }
  }
  const prefix = postgres ? 'explain (analyze, buffers, costs off) ' : 'explain query plan '
  try {
    for (const [label, run] of reads) {
      recorded = []
      recording = true
      const t0 = performance.now()
      await run()
      const total = performance.now() - t0
      recording = false
      const groups = new Map<string, { count: number; ms: number; slowest: Recorded }>()
      for (const r of recorded) {
        const g = groups.get(r.sql) ?? { count: 0, ms: 0, slowest: r }
        g.count++
        g.ms += r.ms
        if (r.ms >= g.slowest.ms) g.slowest = r
        groups.set(r.sql, g)
      }
      const inSql = recorded.reduce((sum, r) => sum + r.ms, 0)
      console.log(
        `\n## ${label}: ${total.toFixed(1)} ms, ${recorded.length} statements, ${inSql.toFixed(1)} ms in them`,
      )
      const costliest = [...groups.values()].sort((a, b) => b.ms - a.ms).slice(0, top)
      for (const g of costliest) {
        console.log(`\n### ${g.count} x, ${g.ms.toFixed(1)} ms (slowest ${g.slowest.ms.toFixed(1)} ms)\n`)
        console.log(`    ${g.slowest.sql.slice(0, 3000)}\n`)
        const plan = await storage.db.executeQuery<Record<string, unknown>>({
          sql: prefix + g.slowest.sql,
          parameters: g.slowest.parameters,
          query: null,
        } as never)
        const depth = new Map<unknown, number>([[0, 0]])
        const lines = plan.rows.map((r) => {
          if (postgres) return String(Object.values(r)[0])
          const d = (depth.get(r.parent) ?? 0) + 1
          depth.set(r.id, d)
          return `${'  '.repeat(d - 1)}${String(r.detail)}`
        })
        console.log(lines.map((l) => `    ${l}`).join('\n'))
      }
    }
  } finally {
    executor.executeQuery = execute
  }
}

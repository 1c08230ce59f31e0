/**
 * What every bench shares: a reference server on a throwaway database (a temp SQLite file, or with
 * `--postgres` a fresh schema on DATABASE_URL or the local server), torn down afterwards, a list of
 * failures that turns the exit code red, and percentiles.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { connect } from '@workgraph/kysely'
import { type RunningServer, startServer } from '@workgraph/server'

export const postgres = process.argv.includes('--postgres')
/** What a bench found wrong (a bench checks its results as it times them); any makes the exit code 1. */
export const failures: string[] = []
export const pgUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/**
 * Starts a server on a throwaway database, runs `bench` with it and the schema name, cleans up,
 * and sets a failing exit code when anything failed. Rate limits are lifted: benches send far more
 * than the default 600 requests a minute.
 */
export async function runBench(
  name: string,
  bench: (server: RunningServer, schema: string) => Promise<void>,
): Promise<void> {
  // A schema name is an identifier: a bench named with a hyphen (`write-cpu`) gets an underscore.
  const schema = `bench_${name.replaceAll('-', '_')}_${Date.now()}`
  const tempDir = postgres ? null : mkdtempSync(join(tmpdir(), `workgraph-bench-${name}-`))
  const server = await startServer({
    databaseUrl: postgres ? pgUrl : join(tempDir!, 'bench.sqlite'),
    ...(postgres ? { databaseSchema: schema } : {}),
    config: { rateLimit: { limit: 10_000_000, windowSeconds: 60 } },
  })
  try {
    await bench(server, schema)
  } finally {
    await server.close()
    // BENCH_KEEP=1 keeps the SQLite file for EXPLAIN QUERY PLAN after the run.
    if (tempDir && process.env.BENCH_KEEP === '1') console.log(`kept ${join(tempDir, 'bench.sqlite')}`)
    else if (tempDir) rmSync(tempDir, { recursive: true, force: true })
    if (postgres) await onPostgres(`drop schema ${schema} cascade`)
  }
  if (failures.length > 0) {
    console.error(`FAILED, ${failures.length} problems:\n- ${failures.slice(0, 20).join('\n- ')}`)
    process.exitCode = 1
  }
}

/** One statement on its own connection: the bench's DDL and ANALYZE, outside the app's pool. */
export async function onPostgres(statement: string): Promise<void> {
  const { db, pool } = await connect({ url: pgUrl })
  await pool!.query(statement)
  await db.destroy()
}

/**
 * Statistics and the visibility map for a freshly bulk-loaded schema, as autovacuum leaves a table
 * after a bulk insert (Postgres 13+ vacuums on inserts too): without statistics Postgres plans as if
 * the tables were empty, and without the visibility map an index-only scan still reads the heap.
 */
export async function analyzePostgres(schema: string): Promise<void> {
  const started = performance.now()
  const { db, pool } = await connect({ url: pgUrl })
  const client = await pool!.connect()
  try {
    // VACUUM cannot run in the implicit transaction of a multi-statement query: two queries.
    await client.query(`set search_path = ${schema}`)
    await client.query('vacuum analyze')
  } finally {
    client.release()
    await db.destroy()
  }
  console.log(`VACUUM ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

/** Linear interpolation between the closest ranks: q = 0.5 is the usual median. */
export function percentile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  const pos = (sorted.length - 1) * q
  const lo = sorted[Math.floor(pos)]!
  return lo + (sorted[Math.ceil(pos)]! - lo) * (pos - Math.floor(pos))
}

/** `p50 / pHigh` in milliseconds, two decimals. */
export function fmt(values: number[], high = 0.99): string {
  return `${percentile(values, 0.5).toFixed(2)} / ${percentile(values, high).toFixed(2)}`
}

export interface LoadJob {
  url: string
  method: string
  headers: Record<string, string>
  /** `{{n}}` is replaced by the request's number. */
  body?: string
  count: number
  concurrency: number
  /** The status every response must have; others are failures. */
  expect: number
}
export interface LoadResult {
  latencies: number[]
  elapsedMs: number
  failures: string[]
}

/** Runs one load job on a worker thread (bench/load-worker.mjs) and returns its latencies. */
export async function load(job: LoadJob): Promise<LoadResult> {
  const { Worker } = await import('node:worker_threads')
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: job })
  return new Promise((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
  })
}

/**
 * CPU time of a process's main thread (Linux, /proc), in ms: its tid is the process id. The main
 * thread only, so a bench's load generator (a worker thread) is not counted. From `schedstat` (time
 * on a CPU, in nanoseconds): `stat`'s user and system times count 10 ms ticks, 0.1 ms per request
 * over a round of 100 requests.
 */
export function mainThreadCpuMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6
}

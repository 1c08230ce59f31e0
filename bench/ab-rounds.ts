/**
 * Interleaved A/B rounds: two servers answering the same request, measured round after round with
 * the worker-thread load generator, so a change in the machine's load hits both sides alike.
 */
import { failures, type LoadJob, load, mainThreadCpuMs, percentile } from './support.ts'

export interface AbSide {
  /** Names the side in failures. */
  name: string
  /** The load job of `count` requests against this side. */
  job: (count: number) => LoadJob
  /** The process whose main thread serves this side, for its CPU time; null when unknown. */
  pid: number | null
}

export interface AbSideResult {
  /** Median of the rounds' throughputs, requests per second. */
  rate: number
  /** Every round's latencies, in ms. */
  latencies: number[]
  /** Mean over the rounds of the main thread's CPU ms per request; NaN when the pid is unknown. */
  cpuPerRequest: number
}

export interface AbResult {
  a: AbSideResult
  b: AbSideResult
  /** Median of the rounds' throughput ratios a / b. */
  ratio: number
}

interface Round {
  rate: number
  latencies: number[]
  cpuPerRequest: number
}

/**
 * Warms both sides up (50 requests each), then runs `rounds` rounds of `count` requests a side,
 * alternating which side goes first; failed requests (the first three a round) join `failures`,
 * named by side and `label`.
 */
export async function abRounds(
  sides: { a: AbSide; b: AbSide },
  options: { rounds: number; count: number; label: string },
): Promise<AbResult> {
  const { a, b } = sides
  await load(a.job(50))
  await load(b.job(50))
  const ofA: Round[] = []
  const ofB: Round[] = []
  for (let r = 0; r < options.rounds; r++) {
    // Alternate which side goes first, so neither always follows the other's garbage.
    for (const side of r % 2 === 0 ? [a, b] : [b, a]) {
      const cpuBefore = side.pid ? mainThreadCpuMs(side.pid) : 0
      const result = await load(side.job(options.count))
      const cpu = side.pid ? mainThreadCpuMs(side.pid) - cpuBefore : Number.NaN
      failures.push(...result.failures.slice(0, 3).map((f) => `${side.name} ${options.label}: ${f}`))
      const rounds = side === a ? ofA : ofB
      rounds.push({
        rate: (result.latencies.length / result.elapsedMs) * 1000,
        latencies: result.latencies,
        cpuPerRequest: cpu / result.latencies.length,
      })
    }
  }
  const summary = (rs: Round[]): AbSideResult => ({
    rate: percentile(
      rs.map((x) => x.rate),
      0.5,
    ),
    latencies: rs.flatMap((x) => x.latencies),
    cpuPerRequest: rs.reduce((sum, x) => sum + x.cpuPerRequest, 0) / rs.length,
  })
  return {
    a: summary(ofA),
    b: summary(ofB),
    ratio: percentile(
      ofA.map((x, i) => x.rate / ofB[i]!.rate),
      0.5,
    ),
  }
}

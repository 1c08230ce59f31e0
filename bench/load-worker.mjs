/**
 * A load generator (bench/support.ts `load`) on its own thread (its own event loop, so the server's loop is not also the
 * client's): sends `count` requests with `concurrency` in flight over keep-alive connections and
 * posts back each latency in ms and the elapsed time. `body` may hold `{{n}}`, replaced by the
 * request's number. Statuses other than `expect` are counted as failures.
 */
import { Agent, request } from 'node:http'
import { parentPort, workerData } from 'node:worker_threads'

// Plain JavaScript: a worker thread does not inherit tsx's loader. Types: LoadJob in support.ts.
const job = workerData
const agent = new Agent({ keepAlive: true, maxSockets: job.concurrency })
const url = new URL(job.url)

/** @param {number} n */
function once(n) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const body = job.body?.replaceAll('{{n}}', String(n))
    const req = request(
      {
        agent,
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method: job.method,
        headers: { ...job.headers, ...(body ? { 'content-length': Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = []
        res.on('data', (c) => chunks.push(c))
        res.on('end', () => {
          if (res.statusCode !== job.expect)
            reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 200)}`))
          else resolve(performance.now() - started)
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** @type {number[]} */
const latencies = []
/** @type {string[]} */
const failures = []
let next = 0
const started = performance.now()
await Promise.all(
  Array.from({ length: job.concurrency }, async () => {
    for (let n = next++; n < job.count; n = next++) {
      try {
        latencies.push(await once(n))
      } catch (error) {
        failures.push(String(error))
      }
    }
  }),
)
agent.destroy()
parentPort?.postMessage({ latencies, elapsedMs: performance.now() - started, failures })

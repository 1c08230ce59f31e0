import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

/** Checkpoints a SQLite file's WAL on a worker thread, so a commit never waits for one. */
export interface WalCheckpointer {
  /** Called after each commit: wakes the worker (a shared counter, no message). */
  committed(): void
  /** Stops the worker after the checkpoint it is running, if any, and closes its connection. */
  stop(): Promise<void>
}

/** Commits before the worker starts: a small database (a test's) never starts a thread. */
const START_AFTER_COMMITS = 100
/** The main connection's own checkpoint once the worker runs: a backstop if the worker falls behind. */
const BACKSTOP_FRAMES = 4_000
/** The worker waits this long after a wake-up, so a burst of commits is checkpointed once. */
const BATCH_MS = 20
/** Without a commit it still checkpoints this often (writes outside a transaction do not wake it). */
const IDLE_MS = 1_000

/**
 * SQLite's automatic checkpoint runs inside the commit that crosses 1,000 WAL frames: it copies
 * the frames into the database file and syncs both files, every few dozen creates, on the event
 * loop. Here a second connection on a worker thread runs `wal_checkpoint(PASSIVE)` shortly after
 * commits: a passive checkpoint takes no lock a writer or reader waits for, so the main thread only
 * appends to the WAL. The main connection keeps a distant automatic checkpoint as a backstop (a
 * checkpoint that races a commit leaves the WAL unfinished and it is not restarted until one
 * catches up), and checkpoints by itself until the worker starts.
 */
export function walCheckpointer(
  database: SQLite.Database,
  options: { path: string; nativeBinding: string | undefined },
): WalCheckpointer {
  // [0]: commits so far, [1]: 1 when stopping.
  const signal = new Int32Array(new SharedArrayBuffer(8))
  let worker: Worker | undefined
  let exited: Promise<void> = Promise.resolve()
  let commits = 0
  const start = () => {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        driver: createRequire(import.meta.url).resolve('better-sqlite3'),
        path: options.path,
        nativeBinding: options.nativeBinding,
        signal: signal.buffer,
        batchMs: BATCH_MS,
        idleMs: IDLE_MS,
      },
    })
    // A failing worker (the file gone, the addon refusing a thread) leaves the backstop to do the work.
    exited = new Promise((resolve) => {
      worker!.once('exit', () => resolve())
      worker!.once('error', () => {
        if (database.open) database.pragma('wal_autocheckpoint = 1000')
      })
    })
    worker.unref()
    database.pragma(`wal_autocheckpoint = ${BACKSTOP_FRAMES}`)
  }
  return {
    committed() {
      // Called after a commit: a worker that cannot start (no driver to resolve, no threads) must
      // not fail the write that already committed; the main connection keeps checkpointing itself.
      if (++commits === START_AFTER_COMMITS) {
        try {
          start()
        } catch {
          worker = undefined
        }
      }
      if (worker) {
        Atomics.add(signal, 0, 1)
        Atomics.notify(signal, 0)
      }
    },
    async stop() {
      if (!worker) return
      // Unreferenced while it runs (a server's exit does not wait for it), referenced while it stops.
      worker.ref()
      Atomics.store(signal, 1, 1)
      Atomics.add(signal, 0, 1)
      Atomics.notify(signal, 0)
      Atomics.notify(signal, 1)
      await exited
      worker = undefined
    },
  }
}

// CommonJS run by `new Worker(…, { eval: true })`: no file to resolve in a bundle or from source.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads')
const SQLite = require(workerData.driver)
const db = new SQLite(workerData.path, { timeout: 100, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) })
const signal = new Int32Array(workerData.signal)
let seen = Atomics.load(signal, 0)
while (Atomics.load(signal, 1) === 0) {
  Atomics.wait(signal, 0, seen, workerData.idleMs)
  if (Atomics.load(signal, 1) !== 0) break
  Atomics.wait(signal, 1, 0, workerData.batchMs)
  seen = Atomics.load(signal, 0)
  try {
    db.pragma('wal_checkpoint(PASSIVE)')
  } catch {
    // Busy (the main connection's backstop is checkpointing): the next round catches up.
  }
}
db.close()
`

import type { ExportId, ImportId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Storage } from '../kernel/storage.ts'
import type { SystemRunner } from '../notifications/run.ts'
import { exportStep } from './exports.ts'
import { importBatch, StepLost } from './import-job.ts'

/** What one pass of the transfer job did. */
export interface TransferPass {
  /** Steps committed (an export chunk, or a batch of import rows). */
  steps: number
  /** Steps whose transaction failed; the next pass tries them again from the checkpoint. */
  failed: number
}

export interface TransferOptions {
  /** Stop after this many steps (tests run the job step by step); default: until nothing is left. */
  maxSteps?: number
  /** Records per export chunk and rows per import step (default 500 and 200). */
  exportBatch?: number
  importBatch?: number
  onError?: (error: unknown) => void
}

/**
 * The background job of exports and imports: for each unfinished one, oldest first, steps from its
 * checkpoint until it is done. Each step is one transaction that commits its output with the next
 * checkpoint, so a restart, a crash or a second process continues where the last commit left off.
 */
export async function runTransfers(
  storage: Storage,
  run: SystemRunner,
  options: TransferOptions = {},
): Promise<TransferPass> {
  const pass: TransferPass = { steps: 0, failed: 0 }
  const budget = options.maxSteps ?? Number.POSITIVE_INFINITY
  const exports = await storage.read((s) => s.exports.pending(100))
  const imports = await storage.read((s) => s.imports.pending(100))
  // An export step is one transaction; an import step is a batch of rows, each in a transaction of its own.
  const jobs: Array<() => Promise<boolean | null>> = [
    ...exports.map(
      (e) => () =>
        run(e.orgId, (ctx: OperationContext) =>
          exportStep(ctx, e.orgId, e.id as ExportId, options.exportBatch ?? 500),
        ),
    ),
    ...imports.map(
      (i) => () => importBatch(storage, run, i.orgId, i.id as ImportId, options.importBatch ?? 200),
    ),
  ]
  for (const job of jobs) {
    for (;;) {
      if (pass.steps >= budget) return pass
      try {
        const more = await job()
        pass.steps++
        if (!more) break
      } catch (error) {
        // Lost to another worker: it carries on from the checkpoint it committed.
        if (!(error instanceof StepLost)) {
          pass.failed++
          options.onError?.(error)
        }
        break
      }
    }
  }
  return pass
}

import type { SystemRunner } from '../kernel/operation.ts'
import type { Storage } from '../kernel/storage.ts'
import { passDueDates } from './due.ts'
import { RuleFailure, ruleStep } from './engine.ts'

export interface RulePass {
  /** Runs recorded in the rules' logs. */
  runs: number
  /** Orgs whose log was read. */
  orgs: number
  /** Orgs whose step failed for another reason than a rule's act, and due-date batches that failed; the next pass tries again. */
  failed: number
  /** `task.due_date_passed` events written for `dueDatePassed` rules (due.ts). */
  duePassed: number
}

/** Orgs read per pass; more wait for the next one. */
const ORGS_PER_PASS = 1_000

/**
 * Writes the events of due dates that passed, then brings every org's rules up to the end of its event log, after commit, one transaction per batch
 * of events. Safe to run from several processes at once: each org's position is claimed under a
 * lock. A rule whose act fails rolls its batch back; the batch runs again with that run recorded as
 * failed, so one bad rule never holds up the log.
 */
export async function runRules(
  storage: Storage,
  run: SystemRunner,
  onError?: (error: unknown) => void,
): Promise<RulePass> {
  // Due dates that passed become events first, so this pass runs their rules too.
  const due = await passDueDates(storage, run, onError)
  const pass: RulePass = { runs: 0, orgs: 0, failed: due.failed, duePassed: due.written }
  for (const orgId of await storage.read((s) => s.ruleEngine.behind(ORGS_PER_PASS))) {
    pass.orgs++
    const failed = new Map<string, string>()
    for (;;) {
      let step: { runs: number; more: boolean } | null
      try {
        step = await run(orgId, (ctx) => ruleStep(ctx, orgId, failed))
      } catch (error) {
        if (error instanceof RuleFailure && !failed.has(error.key)) {
          failed.set(error.key, error.message)
          continue
        }
        pass.failed++
        onError?.(error)
        break
      }
      pass.runs += step?.runs ?? 0
      if (!step?.more) break
    }
  }
  return pass
}

import type { CycleId, OrgId, TeamId } from '../kernel/ids.ts'
import type { SystemRunner } from '../kernel/operation.ts'
import { ensureUpcomingCycles } from './cadence.ts'
import { completeEndedCycle } from './rollover.ts'

export interface CycleAdvance {
  /** Cycles completed because their end passed. */
  completed: number
  /** Upcoming cycles created to top up the cadences (those created as rollover targets are not counted). */
  created: number
  /** Cycles or teams whose transaction failed; the next pass tries them again. */
  failed: number
}

/** Ended cycles read per pass; a backlog larger than this is finished by the next pass. */
const ENDED_BATCH = 500

/**
 * The time-driven part of cycles: completes every cycle whose end has passed (rolling its
 * unfinished tasks over), then tops up each cadence team's upcoming cycles. One transaction per
 * cycle or team, so one failure does not hold back the rest, and running it twice changes nothing.
 */
export async function advanceCycles(
  sweep: {
    ended(now: string, limit: number): Promise<Array<{ orgId: OrgId; id: string }>>
    teamsWithCadence(): Promise<Array<{ orgId: OrgId; teamId: string }>>
  },
  run: SystemRunner,
  now: string,
  onError?: (error: unknown) => void,
): Promise<CycleAdvance> {
  const result: CycleAdvance = { completed: 0, created: 0, failed: 0 }
  const attempt = async <T>(work: () => Promise<T>): Promise<T | null> => {
    try {
      return await work()
    } catch (error) {
      result.failed++
      onError?.(error)
      return null
    }
  }
  for (const cycle of await sweep.ended(now, ENDED_BATCH)) {
    const done = await attempt(() =>
      run(cycle.orgId, (ctx) => completeEndedCycle(ctx, cycle.orgId, cycle.id as CycleId)),
    )
    if (done) result.completed++
  }
  for (const team of await sweep.teamsWithCadence()) {
    const created = await attempt(() =>
      run(team.orgId, (ctx) => ensureUpcomingCycles(ctx, team.orgId, team.teamId as TeamId)),
    )
    result.created += created?.length ?? 0
  }
  return result
}

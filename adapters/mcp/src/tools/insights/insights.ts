import { Type } from '@sinclair/typebox'
import type { Cycle, CycleBurndown, TeamVelocity } from '@workgraph/core'
import { object, TeamRef, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

const CycleRef = Type.String({
  minLength: 1,
  maxLength: 120,
  description: 'Default: `current`.',
})

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** One sentence a person can read aloud, from the burndown's last day and the team's velocity. */
function summarize(
  cycle: Cycle,
  last: CycleBurndown['days'][number] | undefined,
  velocity: TeamVelocity,
): string {
  const name = cycle.name ?? `Cycle ${cycle.number}`
  if (!last) return `${name} starts ${cycle.startsAt.slice(0, 10)}; nothing to report yet.`
  const done = last.scopeCount === 0 ? 0 : Math.round((last.completedCount / last.scopeCount) * 100)
  const parts = [
    `${name} (${cycle.status}): ${last.completedCount} of ${plural(last.scopeCount, 'task')} done (${done}%)`,
    `${plural(last.remainingCount, 'task')} and ${last.remainingPoints} points remain on ${last.date}`,
  ]
  if (velocity.averageCompletedPoints !== null)
    parts.push(`the team completes ${velocity.averageCompletedPoints} points per cycle on average`)
  return `${parts.join('; ')}.`
}

export const insightTools: ToolDefinition[] = [
  {
    name: 'cycle_insights',
    title: "A cycle's progress",
    description:
      "A cycle's scope, done and remaining day by day, and the team's velocity; counts only what you can see.",
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['cycles.get', 'cycles.burndown', 'teams.velocity', 'names.resolve'],
    input: object({ workspace: Workspace, team: TeamRef, cycle: Type.Optional(CycleRef) }, ['team']),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      const orgId = org.id
      const teamId = await call.resolve(orgId, 'team', args.team)
      const cycleId = await call.resolve(orgId, 'cycle', args.cycle ?? 'current', args.team)
      const cycle = await call.run<Cycle>('cycles.get', { params: { orgId, cycleId } })
      const burndown = await call.run<CycleBurndown>('cycles.burndown', { params: { orgId, cycleId } })
      const velocity = await call.run<TeamVelocity>('teams.velocity', {
        params: { orgId, teamId },
        query: { cycles: 3 },
      })
      const last = burndown.days.at(-1)
      return {
        summary: summarize(cycle, last, velocity),
        cycle: {
          number: cycle.number,
          name: cycle.name,
          status: cycle.status,
          startsAt: cycle.startsAt,
          endsAt: cycle.endsAt,
        },
        days: burndown.days.map((d) => ({
          date: d.date,
          scope: d.scopeCount,
          done: d.completedCount,
          remaining: d.remainingCount,
          remainingPoints: d.remainingPoints,
        })),
        velocity: {
          averageCompletedPoints: velocity.averageCompletedPoints,
          recent: velocity.cycles.map((c) => ({ number: c.number, completedPoints: c.completedPoints })),
        },
      }
    },
  },
]

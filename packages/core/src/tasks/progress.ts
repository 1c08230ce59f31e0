import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { STATE_CATEGORIES, type StateCategory } from '../teams/schemas.ts'

/** Tasks of one state category among a set of tasks, as storage counts them. */
export interface StateTally {
  category: StateCategory
  tasks: number
  points: number
}

const Tally = Type.Object(
  {
    tasks: Type.Integer({ minimum: 0, description: 'Number of tasks.' }),
    points: Type.Number({ minimum: 0, description: 'Sum of their estimates (tasks without one count 0).' }),
  },
  { $id: 'StateTally', additionalProperties: false },
)

/**
 * The progress fields shared by every container of tasks (cycles, projects, milestones and what holds
 * them), so that each rollup reads and computes alike; `of` names the container in descriptions.
 */
export function progressFields(of: string) {
  return {
    total: Tally,
    byCategory: Type.Object(
      {
        triage: Tally,
        backlog: Tally,
        unstarted: Tally,
        started: Tally,
        completed: Tally,
        canceled: Tally,
      },
      { additionalProperties: false, description: `Tasks of the ${of} per state category.` },
    ),
    completedRatio: Type.Number({
      minimum: 0,
      maximum: 1,
      description:
        'Completed points over all points except canceled ones (task counts when nothing is estimated); 0 without tasks.',
    }),
  } satisfies Record<string, TSchema>
}

const Fields = Type.Object(progressFields('container'))
export type ProgressSummary = Static<typeof Fields>

/** Sums tallies per category into the shared progress shape; categories with no task count zero. */
export function summarizeProgress(tallies: readonly StateTally[]): ProgressSummary {
  const byCategory = Object.fromEntries(
    STATE_CATEGORIES.map((c) => {
      const t = tallies.find((x) => x.category === c)
      return [c, { tasks: t?.tasks ?? 0, points: t?.points ?? 0 }]
    }),
  ) as ProgressSummary['byCategory']
  const sum = (key: 'tasks' | 'points') => tallies.reduce((n, t) => n + t[key], 0)
  const total = { tasks: sum('tasks'), points: sum('points') }
  // Canceled work is out of scope; points decide, unless nothing is estimated.
  const key = total.points - byCategory.canceled.points > 0 ? 'points' : 'tasks'
  const scope = total[key] - byCategory.canceled[key]
  return { total, byCategory, completedRatio: scope > 0 ? byCategory.completed[key] / scope : 0 }
}

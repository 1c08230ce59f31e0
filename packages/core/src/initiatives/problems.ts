import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the initiatives group raises (codes several groups raise are the kernel's). */
export const INITIATIVE_PROBLEMS = defineProblems('initiatives', {
  initiative_cycle: { status: 409, title: 'An initiative cannot become its own ancestor' },
  initiative_depth: { status: 409, title: 'Initiatives nest at most five levels deep' },
  metric_not_set: { status: 409, title: 'The initiative has no metric' },
})

type InitiativeProblems = typeof INITIATIVE_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends InitiativeProblems {}
}

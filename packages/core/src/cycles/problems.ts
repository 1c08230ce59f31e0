import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the cycles group raises (codes several groups raise are the kernel's). */
export const CYCLE_PROBLEMS = defineProblems('cycles', {
  cycle_overlap: { status: 409, title: "The cycle's dates overlap another cycle of the team" },
})

type CycleProblems = typeof CYCLE_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends CycleProblems {}
}

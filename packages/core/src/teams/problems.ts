import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the teams group raises (codes several groups raise are the kernel's). */
export const TEAM_PROBLEMS = defineProblems('teams', {
  state_in_use: { status: 409, title: 'The workflow state still holds tasks' },
  last_state: { status: 409, title: 'A team keeps at least one active workflow state' },
})

type TeamProblems = typeof TEAM_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends TeamProblems {}
}

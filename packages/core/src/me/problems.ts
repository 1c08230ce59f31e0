import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the me group raises (codes several groups raise are the kernel's). */
export const ME_PROBLEMS = defineProblems('me', {
  first_party_only: { status: 403, title: "Only the service's own apps may manage the account" },
})

type MeProblems = typeof ME_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends MeProblems {}
}

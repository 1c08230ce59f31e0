import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the triage group raises (codes several groups raise are the kernel's). */
export const TRIAGE_PROBLEMS = defineProblems('triage', {
  not_in_triage: { status: 409, title: 'The task is not in triage' },
  triage_disabled: { status: 409, title: 'The team does not take requests into triage' },
})

type TriageProblems = typeof TRIAGE_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends TriageProblems {}
}

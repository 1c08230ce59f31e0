import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the labels group raises (codes several groups raise are the kernel's). */
export const LABEL_PROBLEMS = defineProblems('labels', {
  label_name_taken: { status: 409, title: 'Another label in the same scope has this name' },
})

type LabelProblems = typeof LABEL_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends LabelProblems {}
}

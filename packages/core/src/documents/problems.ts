import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the documents group raises (codes several groups raise are the kernel's). */
export const DOCUMENT_PROBLEMS = defineProblems('documents', {
  document_locked: { status: 409, title: 'The document is locked against edits' },
})

type DocumentProblems = typeof DOCUMENT_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends DocumentProblems {}
}

import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the streams group raises (codes several groups raise are the kernel's). */
export const STREAM_PROBLEMS = defineProblems('streams', {
  cursor_expired: { status: 410, title: 'The stream cursor is older than the retained events' },
})

type StreamProblems = typeof STREAM_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends StreamProblems {}
}

import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the comments group raises (codes several groups raise are the kernel's). */
export const COMMENT_PROBLEMS = defineProblems('comments', {
  comment_deleted: { status: 409, title: 'The comment is deleted' },
  comment_not_root: { status: 422, title: 'The comment is a reply, not the root of its thread' },
})

type CommentProblems = typeof COMMENT_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends CommentProblems {}
}

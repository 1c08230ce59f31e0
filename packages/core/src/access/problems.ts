import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the access group raises (codes several groups raise are the kernel's). */
export const ACCESS_PROBLEMS = defineProblems('access', {
  invitation_invalid: { status: 410, title: 'The invitation is used, revoked or expired' },
  invitation_email_mismatch: { status: 403, title: 'The invitation was sent to another email address' },
})

type AccessProblems = typeof ACCESS_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends AccessProblems {}
}

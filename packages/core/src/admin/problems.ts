import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the admin group raises (codes several groups raise are the kernel's). */
export const ADMIN_PROBLEMS = defineProblems('admin', {
  domain_not_allowed: {
    status: 422,
    title: 'The address is not on a verified domain of the workspace',
  },
})

type AdminProblems = typeof ADMIN_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends AdminProblems {}
}

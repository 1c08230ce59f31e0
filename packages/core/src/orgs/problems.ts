import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the orgs group raises (codes several groups raise are the kernel's). */
export const ORG_PROBLEMS = defineProblems('orgs', {
  last_owner: { status: 409, title: 'The workspace keeps at least one active owner' },
})

type OrgProblems = typeof ORG_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends OrgProblems {}
}

import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the updates group raises (codes several groups raise are the kernel's). */
export const UPDATE_PROBLEMS = defineProblems('updates', {
  update_already_requested: { status: 409, title: 'An update was already asked for on this record today' },
  no_update_owner: { status: 422, title: 'The record has no lead or owner to ask for an update' },
})

type UpdateProblems = typeof UPDATE_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends UpdateProblems {}
}

import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the fields group raises (codes several groups raise are the kernel's). */
export const CUSTOM_FIELD_PROBLEMS = defineProblems('fields', {
  custom_field_name_taken: { status: 409, title: 'Another active custom field has this name' },
})

type CustomFieldProblems = typeof CUSTOM_FIELD_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends CustomFieldProblems {}
}

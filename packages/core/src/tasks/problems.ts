import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the tasks group raises (codes several groups raise are the kernel's). */
export const TASK_PROBLEMS = defineProblems('tasks', {
  has_children: { status: 409, title: 'The task has open subtasks; say what happens to them' },
})

type TaskProblems = typeof TASK_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends TaskProblems {}
}

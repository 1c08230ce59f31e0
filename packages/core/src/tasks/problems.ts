import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the tasks group raises (codes several groups raise are the kernel's). */
export const TASK_PROBLEMS = defineProblems('tasks', {
  has_children: { status: 409, title: 'The task has open subtasks; say what happens to them' },
  subtask_cycle: { status: 409, title: 'A task cannot become its own ancestor' },
  subtask_depth: { status: 409, title: 'Subtasks nest at most five levels deep' },
})

type TaskProblems = typeof TASK_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends TaskProblems {}
}

import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the projects group raises (codes several groups raise are the kernel's). */
export const PROJECT_PROBLEMS = defineProblems('projects', {
  project_status_in_use: { status: 409, title: 'Projects are still in this project status' },
  last_project_status: {
    status: 409,
    title: 'An org keeps at least one active project status in each category',
  },
  open_work: { status: 409, title: 'The project has open tasks; say what happens to them' },
})

type ProjectProblems = typeof PROJECT_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends ProjectProblems {}
}

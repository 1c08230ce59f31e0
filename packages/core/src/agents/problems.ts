import { defineProblems } from '../kernel/problems/codes.ts'

/** The problem codes only the agents group raises (codes several groups raise are the kernel's). */
export const AGENT_PROBLEMS = defineProblems('agents', {
  approval_closed: { status: 409, title: 'The approval request is no longer pending' },
  session_closed: { status: 409, title: 'The agent session has ended' },
  agent_inactive: { status: 409, title: 'The agent is deactivated' },
})

type AgentProblems = typeof AGENT_PROBLEMS
declare module '../kernel/problems/codes.ts' {
  interface GroupProblems extends AgentProblems {}
}

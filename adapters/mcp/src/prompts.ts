import { ErrorCode, type GetPromptResult, McpError, type Prompt } from '@modelcontextprotocol/sdk/types.js'

/** Starting points a person picks in their assistant; each is a plain instruction that uses the tools. */
const PROMPTS: { prompt: Prompt; text: (args: Record<string, string>) => string }[] = [
  {
    prompt: {
      name: 'triage',
      title: 'Triage a team',
      description: "Review a team's untriaged and unassigned tasks and propose a plan.",
      arguments: [{ name: 'team', description: 'Team key or name', required: true }],
    },
    text: (a) =>
      `List the tasks of team ${a.team} in the triage and backlog categories with search_tasks. Propose priorities, states and assignees, show the plan as an organize call with dryRun: true, and apply it only after I agree.`,
  },
  {
    prompt: {
      name: 'my_work',
      title: 'What am I working on',
      description: 'Summarise the tasks assigned to you that are not done.',
    },
    text: () =>
      'Use search_tasks with assignee "me" and stateCategory "unstarted,started" and summarise my open work by priority, with task keys.',
  },
]

export function listPrompts(): { prompts: Prompt[] } {
  return { prompts: PROMPTS.map((p) => p.prompt) }
}

export function getPrompt(name: string, args: Record<string, string> = {}): GetPromptResult {
  const found = PROMPTS.find((p) => p.prompt.name === name)
  if (!found) throw new McpError(ErrorCode.InvalidParams, `No prompt named ${name}`)
  for (const a of found.prompt.arguments ?? [])
    if (a.required && !args[a.name])
      throw new McpError(ErrorCode.InvalidParams, `The prompt needs \`${a.name}\``)
  return {
    description: found.prompt.description ?? '',
    messages: [{ role: 'user', content: { type: 'text', text: found.text(args) } }],
  }
}

import type { StateCategory } from '../../teams/schemas.ts'
import { RowError } from '../row-error.ts'
import { array, blankIssue, item, object, type ToolIssue, text } from './tool-issue.ts'

/** An item of GitHub's `GET /repos/{owner}/{repo}/issues` array; pull requests are skipped. */
export function githubIssue(data: unknown): ToolIssue {
  const issue = item(data)
  if (typeof issue.id !== 'number' && typeof issue.id !== 'string')
    throw new RowError('The issue has no `id`.', 'id')
  const url = text(issue.html_url)
  const repo = url ? /github\.com\/([^/]+\/[^/]+)\/(issues|pull)\//.exec(url)?.[1] : undefined
  const category: StateCategory =
    issue.state === 'closed' ? (issue.state_reason === 'not_planned' ? 'canceled' : 'completed') : 'unstarted'
  const milestone = object(issue.milestone)
  const milestoneTitle = milestone ? text(milestone.title) : null
  const assignee = object(issue.assignee)
  const key = repo ? `${repo}#${String(issue.number)}` : `#${String(issue.number)}`
  return {
    ...blankIssue(`github:${issue.id}`, key, typeof issue.title === 'string' ? issue.title.trim() : ''),
    url,
    description: text(issue.body),
    state: { name: null, category },
    assignee: assignee ? (text(assignee.email) ?? text(assignee.login)) : null,
    labels: array(issue.labels)
      .map((l) => (typeof l === 'string' ? l : text(object(l)?.name)))
      .filter((l): l is string => Boolean(l)),
    project: milestoneTitle
      ? { key: null, name: milestoneTitle, targetDate: text(milestone?.due_on)?.slice(0, 10) ?? null }
      : null,
    skip: issue.pull_request !== undefined && issue.pull_request !== null,
  }
}

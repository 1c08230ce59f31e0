import type { Priority } from '../../tasks/schemas.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { array, object, text } from './tool-issue.ts'

/** Jira's default priority scheme; a priority of another name is a note and the task has none. */
export const JIRA_PRIORITIES: Record<string, Priority> = {
  highest: 'urgent',
  blocker: 'urgent',
  critical: 'urgent',
  high: 'high',
  major: 'high',
  medium: 'medium',
  low: 'low',
  minor: 'low',
  lowest: 'low',
  trivial: 'low',
}

/** Resolutions that close an issue without doing it: a done issue with one of them is canceled. */
const NOT_DONE = new Set(["won't do", "won't fix", 'duplicate', 'cannot reproduce', 'declined', 'obsolete'])

/** Jira's status categories (`new`, `indeterminate`, `done`, or their names) and the resolution. */
export function jiraCategory(category: string | null, resolution: string | null): StateCategory {
  const c = category?.toLowerCase() ?? ''
  if (c === 'done') return resolution && NOT_DONE.has(resolution.toLowerCase()) ? 'canceled' : 'completed'
  if (c === 'indeterminate' || c === 'in progress') return 'started'
  return 'unstarted'
}

/** The text of a description or comment: Jira's API v2 gives a string, v3 an Atlassian document. */
export function jiraText(v: unknown): string | null {
  if (typeof v === 'string') return v || null
  const doc = object(v)
  if (!doc) return null
  const walk = (node: unknown): string => {
    const n = object(node)
    if (!n) return ''
    if (n.type === 'text') return text(n.text) ?? ''
    if (n.type === 'hardBreak') return '\n'
    const inner = array(n.content).map(walk).join('')
    return ['paragraph', 'heading', 'listItem', 'codeBlock', 'blockquote'].includes(String(n.type))
      ? `${inner}\n`
      : inner
  }
  return walk(doc).trim() || null
}

/** A link back to an issue from its REST `self` (`https://acme.atlassian.net/rest/api/2/issue/10001`). */
export function jiraBrowseUrl(self: string | null, key: string): string | null {
  const base = self ? /^(https?:\/\/[^/]+(?:\/[^/]+)*?)\/rest\/api\//.exec(self)?.[1] : undefined
  return base ? `${base}/browse/${key}` : null
}

import { asanaCsvIssue } from './formats/asana-csv.ts'
import { asanaJsonIssue } from './formats/asana-json.ts'
import { githubIssue } from './formats/github-json.ts'
import { jiraCsvIssue, type RepeatedRow } from './formats/jira-csv.ts'
import { jiraJsonIssue } from './formats/jira-json.ts'
import { linearCsvIssue } from './formats/linear-csv.ts'
import { linearJsonIssue } from './formats/linear-json.ts'
import type { ToolIssue } from './formats/tool-issue.ts'
import type { ToolFormat } from './schemas.ts'

export type { ToolComment, ToolIssue } from './formats/tool-issue.ts'

/** How a tool's file is read: a CSV with the columns it must have, or JSON with the path of its issues. */
export type ToolSource =
  | {
      kind: 'csv'
      tool: string
      required: readonly string[]
      /** The header repeats columns (Jira's `Labels`, `Labels`): rows hold every cell of each name. */
      repeated: boolean
    }
  | {
      kind: 'json'
      /** The JSONPath of the issues, as @streamparser/json reads it (`$.issues.*`). */
      path: string
      /** The shape named in the problem when the file has no such array. */
      shape: string
    }

interface ToolReader {
  source: ToolSource
  issue(data: unknown, sourceUrl: string | null): ToolIssue
}

export const TOOL_READERS: Record<ToolFormat, ToolReader> = {
  linear_csv: {
    source: { kind: 'csv', tool: 'Linear', required: ['ID', 'Title', 'Status'], repeated: false },
    issue: (data, url) => linearCsvIssue(data as Record<string, string>, url),
  },
  linear_json: {
    source: {
      kind: 'json',
      path: '$.data.issues.nodes.*',
      shape: '{ "data": { "issues": { "nodes": [...] } } }',
    },
    issue: linearJsonIssue,
  },
  github_json: {
    source: { kind: 'json', path: '$.*', shape: 'an array of issues' },
    issue: githubIssue,
  },
  jira_json: {
    source: { kind: 'json', path: '$.issues.*', shape: '{ "issues": [...] }' },
    issue: jiraJsonIssue,
  },
  jira_csv: {
    source: { kind: 'csv', tool: 'Jira', required: ['Summary', 'Issue key', 'Issue id'], repeated: true },
    issue: (data) => jiraCsvIssue(data as RepeatedRow),
  },
  asana_json: {
    source: { kind: 'json', path: '$.data.*', shape: '{ "data": [...] }' },
    issue: asanaJsonIssue,
  },
  asana_csv: {
    source: { kind: 'csv', tool: 'Asana', required: ['Task ID', 'Name'], repeated: false },
    issue: (data) => asanaCsvIssue(data as Record<string, string>),
  },
}

/** The issue of one source row of a tool format. */
export function toolIssue(format: ToolFormat, data: unknown, sourceUrl: string | null): ToolIssue {
  return TOOL_READERS[format].issue(data, sourceUrl)
}

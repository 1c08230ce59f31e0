import type { Priority } from '../../tasks/schemas.ts'
import type { StateCategory } from '../../teams/schemas.ts'
import { RowError } from '../row-error.ts'

/** A comment of an issue in another tool: posted on the task with its author and time. */
export interface ToolComment {
  /** Stable across exports: the upsert key, so a re-run does not post it twice. */
  sourceKey: string
  /** An email, or a name or account id when the export has no email. */
  author: string | null
  /** When it was written in the tool (ISO 8601); null when the export does not say. */
  createdAt: string | null
  body: string
}

/**
 * One issue of another tool, read from its export: what the import maps onto a task. Each format
 * fills what its file carries (docs/importing.md has the table).
 */
export interface ToolIssue {
  /** Stable across exports of the same tool: the upsert key (`linear:ENG-42`, `github:1347`, `jira:10042`). */
  sourceKey: string
  /** Other keys the file may use for it (Jira's `ENG-42` beside its numeric id): links resolve through them too. */
  aliases: string[]
  /** What people call it in the tool (`ENG-42`, `acme/app#12`): the title of the link back. */
  key: string
  url: string | null
  /** `project`: a Jira epic, imported as a project that its children belong to, not as a task. */
  kind: 'task' | 'project'
  title: string
  description: string | null
  state: { name: string | null; category: StateCategory }
  /** An email, or a name or login when the export has no email. */
  assignee: string | null
  priority: Priority
  estimate: number | null
  dueDate: string | null
  labels: string[]
  /** `key` names the project in the mappings when the tool has one (an epic's source key); else its name does. */
  project: { key: string | null; name: string; targetDate: string | null } | null
  cycle: { number: string; name: string | null; startsAt: string; endsAt: string } | null
  /**
   * Source keys linked in the second pass: the parent (an epic imported as a project makes it the
   * task's project instead), the issues blocking this one, and those it blocks.
   */
  parentKey: string | null
  blockedBy: string[]
  blocks: string[]
  comments: ToolComment[]
  /** What the file says that the task cannot carry as it is (an unknown priority): row notes. */
  notes: string[]
  /** A pull request in GitHub's issue list: skipped. */
  skip: boolean
}

/** An issue with nothing but its keys and title; each format fills in what its file carries. */
export function blankIssue(sourceKey: string, key: string, title: string): ToolIssue {
  return {
    sourceKey,
    aliases: [],
    key,
    url: null,
    kind: 'task',
    title,
    description: null,
    state: { name: null, category: 'unstarted' },
    assignee: null,
    priority: 'none',
    estimate: null,
    dueDate: null,
    labels: [],
    project: null,
    cycle: null,
    parentKey: null,
    blockedBy: [],
    blocks: [],
    comments: [],
    notes: [],
    skip: false,
  }
}

/** Column of a CSV export → the cell, trimmed; missing columns read as empty. */
export const cell = (row: Record<string, string>, column: string) => (row[column] ?? '').trim()

/** A date cell as `YYYY-MM-DD`, or null; an unreadable one refuses the row. */
export function dateOf(value: string | null | undefined, field: string): string | null {
  if (!value) return null
  if (/^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value))) return value
  const time = Date.parse(value)
  if (Number.isNaN(time)) throw new RowError(`\`${value}\` is not a date.`, field)
  return new Date(time).toISOString().slice(0, 10)
}

export function instantOf(value: string, field: string): string {
  // Jira writes offsets without a colon (`+0000`), which Date.parse does not read everywhere.
  const time = Date.parse(value.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'))
  if (Number.isNaN(time)) throw new RowError(`\`${value}\` is not a date.`, field)
  return new Date(time).toISOString()
}

/** An estimate cell or number: empty is none, anything but 0…1000 refuses the row. */
export function estimateOf(value: unknown, field: string): number | null {
  if (value === null || value === undefined || value === '') return null
  const n = typeof value === 'number' ? value : Number(String(value).trim())
  if (!Number.isFinite(n) || n < 0 || n > 1000)
    throw new RowError('The estimate must be a number from 0 to 1000.', field)
  return n
}

/** A comma separated cell as its trimmed, non-empty parts. */
export const list = (value: string) =>
  value
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean)

export const text = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null)

export type JsonObject = Record<string, unknown>
export const object = (v: unknown): JsonObject | null =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonObject) : null
export const array = (v: unknown): unknown[] => (Array.isArray(v) ? v : [])

/** A JSON item that must be an object, or the row is refused. */
export function item(v: unknown): JsonObject {
  const o = object(v)
  if (!o) throw new RowError('The item is not a JSON object.')
  return o
}

/** A person object of a JSON export as what the import matches on: the email, else the name. */
export const personOf = (v: unknown, ...names: string[]): string | null => {
  const o = object(v)
  if (!o) return null
  for (const n of ['email', 'emailAddress', ...names]) if (text(o[n])) return text(o[n])
  return null
}

/**
 * Source keys for comments that have no id of their own in the export: the time and author, with a
 * counter for two of the same minute, so re-reading the same file gives the same keys.
 */
export function commentKeys<T extends { createdAt: string | null; author: string | null }>(
  issueKey: string,
  comments: T[],
): Array<T & { sourceKey: string }> {
  const seen = new Map<string, number>()
  return comments.map((c) => {
    const base = `${issueKey}:comment:${c.createdAt ?? ''}:${c.author ?? ''}`
    const n = (seen.get(base) ?? 0) + 1
    seen.set(base, n)
    return { ...c, sourceKey: n === 1 ? base : `${base}:${n}` }
  })
}

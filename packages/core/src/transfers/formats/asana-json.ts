import { RowError } from '../row-error.ts'
import { ASANA_ESTIMATES, ASANA_PRIORITIES, asanaUrl } from './asana-common.ts'
import {
  array,
  blankIssue,
  dateOf,
  estimateOf,
  instantOf,
  item,
  object,
  personOf,
  type ToolComment,
  type ToolIssue,
  text,
} from './tool-issue.ts'

const gidOf = (v: unknown) => {
  const o = object(v)
  return o ? text(o.gid) : null
}

/**
 * A task of Asana's project export (`GET /projects/{gid}/tasks` with `opt_fields`, or the JSON the
 * app exports: `{ data: [...] }`). The section is the state by name; `completed` makes it done.
 * Stories of type `comment` are the comments; other stories (system changes) are not carried.
 */
export function asanaJsonIssue(data: unknown): ToolIssue {
  const task = item(data)
  const gid = text(task.gid)
  if (!gid) throw new RowError('The task has no `gid`.', 'gid')
  const membership = array(task.memberships).map(object).find(Boolean)
  const section = text(object(membership?.section)?.name)
  const projectName = text(object(membership?.project)?.name) ?? text(object(array(task.projects)[0])?.name)
  const notes: string[] = []
  let priority: ToolIssue['priority'] = 'none'
  let estimate: number | null = null
  for (const f of array(task.custom_fields).map(object)) {
    const name = text(f?.name)?.toLowerCase()
    if (!f || !name) continue
    if (name === 'priority') {
      const option = text(object(f.enum_value)?.name) ?? text(f.display_value)
      if (option && ASANA_PRIORITIES[option.toLowerCase()]) priority = ASANA_PRIORITIES[option.toLowerCase()]!
      else if (option) notes.push(`Asana's priority \`${option}\` has no match; the task has none.`)
    } else if (ASANA_ESTIMATES.includes(name)) estimate = estimateOf(f.number_value, f.name as string)
  }
  const comments: ToolComment[] = []
  for (const s of array(task.stories).map(object)) {
    if (!s || (s.type !== 'comment' && s.resource_subtype !== 'comment_added')) continue
    const body = text(s.text)
    if (!body) continue
    const created = text(s.created_at)
    comments.push({
      sourceKey: `asana:comment:${text(s.gid) ?? `${gid}:${created}`}`,
      author: personOf(s.created_by, 'name'),
      createdAt: created ? instantOf(created, 'stories.created_at') : null,
      body,
    })
  }
  const parent = gidOf(task.parent)
  return {
    ...blankIssue(`asana:${gid}`, `Asana ${gid}`, (text(task.name) ?? '').trim()),
    url: asanaUrl(gid, text(task.permalink_url)),
    description: text(task.notes),
    // Completion is Asana's truth about done: a completed task goes to the first completed state, whatever its section.
    state:
      task.completed === true
        ? { name: null, category: 'completed' }
        : { name: section, category: 'unstarted' },
    assignee: personOf(task.assignee, 'name'),
    priority,
    estimate,
    dueDate: dateOf(text(task.due_on) ?? text(task.due_at), 'due_on'),
    labels: array(task.tags)
      .map((t) => text(object(t)?.name))
      .filter((t): t is string => Boolean(t)),
    project: projectName ? { key: null, name: projectName, targetDate: null } : null,
    parentKey: parent ? `asana:${parent}` : null,
    blockedBy: array(task.dependencies)
      .map(gidOf)
      .filter((g): g is string => Boolean(g))
      .map((g) => `asana:${g}`),
    blocks: array(task.dependents)
      .map(gidOf)
      .filter((g): g is string => Boolean(g))
      .map((g) => `asana:${g}`),
    comments,
    notes,
  }
}

import { RowError } from '../row-error.ts'
import { JIRA_PRIORITIES, jiraBrowseUrl, jiraCategory, jiraText } from './jira-common.ts'
import {
  array,
  blankIssue,
  dateOf,
  estimateOf,
  instantOf,
  item,
  type JsonObject,
  object,
  personOf,
  type ToolComment,
  type ToolIssue,
  text,
} from './tool-issue.ts'

/** The custom fields Jira Cloud and Server use for story points, in the order they are tried. */
const STORY_POINTS = ['customfield_10016', 'customfield_10026', 'customfield_10028', 'customfield_10002']

/** The sprint field is a custom field whose value is a list of sprints: found by its shape, not its number. */
function sprintOf(fields: JsonObject): JsonObject | null {
  for (const [name, value] of Object.entries(fields)) {
    if (!name.startsWith('customfield_') || !Array.isArray(value) || value.length === 0) continue
    const sprints = value.map(object).filter((s) => s && 'state' in s && 'name' in s && 'id' in s)
    // An issue carried over sprints lists them all; it belongs to the last one.
    if (sprints.length === value.length) return sprints[sprints.length - 1]!
  }
  return null
}

const issueRef = (v: unknown) => {
  const o = object(v)
  const id = o && (typeof o.id === 'number' ? String(o.id) : text(o.id))
  return id ? `jira:${id}` : null
}

/**
 * An item of `issues` as Jira's REST search (`GET /rest/api/2|3/search`) answers it. The numeric id
 * is the source key (keys change when an issue moves project); the key is an alias, so links and
 * a CSV export of the same site name the same tasks. An epic becomes a project.
 */
export function jiraJsonIssue(data: unknown): ToolIssue {
  const issue = item(data)
  const id = typeof issue.id === 'number' ? String(issue.id) : text(issue.id)
  const key = text(issue.key)
  if (!id || !key) throw new RowError('The issue has no `id` or `key`.', 'id')
  const fields = object(issue.fields) ?? {}
  const status = object(fields.status)
  const priorityName = text(object(fields.priority)?.name)
  const priority = priorityName ? JIRA_PRIORITIES[priorityName.toLowerCase()] : 'none'
  const notes = priority ? [] : [`Jira's priority \`${priorityName}\` has no match; the task has none.`]
  const parent = object(fields.parent)
  const parentIsEpic = text(object(object(parent?.fields)?.issuetype)?.name)?.toLowerCase() === 'epic'
  const sprint = sprintOf(fields)
  const points = STORY_POINTS.map((f) => fields[f]).find((v) => typeof v === 'number')
  const blockedBy = array(fields.issuelinks)
    .map(object)
    .filter((l) => text(object(l?.type)?.name)?.toLowerCase() === 'blocks' && l?.inwardIssue)
    .map((l) => issueRef(l?.inwardIssue))
    .filter((k): k is string => Boolean(k))
  const comments: ToolComment[] = []
  for (const c of array(object(fields.comment)?.comments)) {
    const comment = object(c)
    const body = jiraText(comment?.body)
    if (!comment || !body) continue
    const created = text(comment.created)
    comments.push({
      sourceKey: `jira:comment:${String(comment.id ?? `${id}:${created}`)}`,
      author: personOf(comment.author, 'displayName', 'accountId'),
      createdAt: created ? instantOf(created, 'comment.created') : null,
      body,
    })
  }
  return {
    ...blankIssue(`jira:${id}`, key, (text(fields.summary) ?? '').trim()),
    aliases: [`jira:${key}`],
    url: jiraBrowseUrl(text(issue.self), key),
    kind: text(object(fields.issuetype)?.name)?.toLowerCase() === 'epic' ? 'project' : 'task',
    description: jiraText(fields.description),
    state: {
      name: text(status?.name),
      category: jiraCategory(
        text(object(status?.statusCategory)?.key),
        text(object(fields.resolution)?.name),
      ),
    },
    assignee: personOf(fields.assignee, 'displayName'),
    priority: priority ?? 'none',
    estimate: estimateOf(points, 'story points'),
    dueDate: dateOf(text(fields.duedate), 'duedate'),
    labels: array(fields.labels).filter((l): l is string => typeof l === 'string' && l !== ''),
    // A parent epic the search answer names is a project, whether or not the epic is in the file.
    project:
      parentIsEpic && issueRef(parent)
        ? {
            key: issueRef(parent),
            name: text(object(parent?.fields)?.summary) ?? text(parent?.key) ?? 'Epic',
            targetDate: null,
          }
        : null,
    cycle:
      sprint && text(sprint.startDate) && text(sprint.endDate)
        ? {
            number: String(sprint.id),
            name: text(sprint.name),
            startsAt: instantOf(text(sprint.startDate)!, 'sprint.startDate'),
            endsAt: instantOf(text(sprint.endDate)!, 'sprint.endDate'),
          }
        : null,
    parentKey: parent && !parentIsEpic ? issueRef(parent) : null,
    blockedBy,
    comments,
    notes:
      sprint && !(text(sprint.startDate) && text(sprint.endDate))
        ? [...notes, `Sprint \`${text(sprint.name)}\` has no dates yet; the task is in no cycle.`]
        : notes,
  }
}

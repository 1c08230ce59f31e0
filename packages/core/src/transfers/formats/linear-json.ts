import type { Priority } from '../../tasks/schemas.ts'
import { STATE_CATEGORIES, type StateCategory } from '../../teams/schemas.ts'
import { RowError } from '../row-error.ts'
import { linearUrl } from './linear-csv.ts'
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

/** Linear's `priority` number: 0 none, 1 urgent, 2 high, 3 medium, 4 low. */
const PRIORITY_NUMBERS: Priority[] = ['none', 'urgent', 'high', 'medium', 'low']

const nodes = (v: unknown): unknown[] => array(object(v)?.nodes)
const identifier = (v: unknown) => text(object(v)?.identifier)

/**
 * A node of `data.issues.nodes` as Linear's GraphQL API answers an issues query. The keys are the
 * identifiers (`ENG-42`), as in Linear's CSV, so a CSV import and a JSON import of the same
 * workspace match the same tasks.
 */
export function linearJsonIssue(data: unknown, sourceUrl: string | null): ToolIssue {
  const issue = item(data)
  const key = text(issue.identifier)
  if (!key) throw new RowError('The issue has no `identifier`.', 'identifier')
  const state = object(issue.state)
  const type = text(state?.type)
  const category: StateCategory = STATE_CATEGORIES.includes(type as StateCategory)
    ? (type as StateCategory)
    : 'unstarted'
  const priority = issue.priority === undefined || issue.priority === null ? 0 : issue.priority
  if (typeof priority !== 'number' || !PRIORITY_NUMBERS[priority])
    throw new RowError(`Unknown priority \`${String(priority)}\`; Linear's are 0 to 4.`, 'priority')
  const project = object(issue.project)
  const projectName = text(project?.name)
  const cycle = object(issue.cycle)
  const cycleNumber = cycle && (typeof cycle.number === 'number' ? String(cycle.number) : text(cycle.id))
  const parent = identifier(issue.parent)
  const sourceKey = (k: string) => `linear:${k}`
  const comments: ToolComment[] = []
  for (const c of nodes(issue.comments)) {
    const node = object(c)
    const body = text(node?.body)
    if (!node || !body) continue
    const created = text(node.createdAt)
    comments.push({
      sourceKey: `linear:comment:${text(node.id) ?? `${key}:${created}`}`,
      author: personOf(node.user, 'name'),
      createdAt: created ? instantOf(created, 'comments.createdAt') : null,
      body,
    })
  }
  // `relations` are this issue's own ("ENG-1 blocks ENG-2"); `inverseRelations` the others' about it.
  const related = (list: unknown, side: string) =>
    nodes(list)
      .map((r) => object(r))
      .filter((r) => r?.type === 'blocks')
      .map((r) => identifier(r?.[side]))
      .filter((k): k is string => Boolean(k))
      .map(sourceKey)
  return {
    ...blankIssue(sourceKey(key), key, typeof issue.title === 'string' ? issue.title.trim() : ''),
    url: text(issue.url) ?? linearUrl(sourceUrl, key),
    description: text(issue.description),
    state: { name: text(state?.name), category },
    assignee: personOf(issue.assignee, 'name'),
    priority: PRIORITY_NUMBERS[priority]!,
    estimate: estimateOf(issue.estimate, 'estimate'),
    dueDate: dateOf(text(issue.dueDate), 'dueDate'),
    labels: nodes(issue.labels)
      .map((l) => text(object(l)?.name))
      .filter((l): l is string => Boolean(l)),
    project: projectName
      ? { key: null, name: projectName, targetDate: dateOf(text(project?.targetDate), 'project.targetDate') }
      : null,
    cycle:
      cycle && cycleNumber && text(cycle.startsAt) && text(cycle.endsAt)
        ? {
            number: cycleNumber,
            name: text(cycle.name),
            startsAt: instantOf(text(cycle.startsAt)!, 'cycle.startsAt'),
            endsAt: instantOf(text(cycle.endsAt)!, 'cycle.endsAt'),
          }
        : null,
    parentKey: parent ? sourceKey(parent) : null,
    blockedBy: related(issue.inverseRelations, 'issue'),
    blocks: related(issue.relations, 'relatedIssue'),
    comments,
  }
}

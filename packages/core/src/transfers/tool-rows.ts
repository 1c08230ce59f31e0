import { createCycle } from '../cycles/service.ts'
import type { CycleId, LabelId, MemberId, OrgId, ProjectId, StateId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { createLabel } from '../labels/service.ts'
import { createLink } from '../links/service.ts'
import { createProject } from '../projects/service.ts'
import { createTask } from '../tasks/create.ts'
import { addBlocker } from '../tasks/relations/dependencies.ts'
import type { Task } from '../tasks/schemas.ts'
import { type TaskFields, updateTask } from '../tasks/service.ts'
import type { Resolver, RowResult } from './import-rows.ts'
import { RowError } from './row-error.ts'
import { applyToolComments, inviteUnknown } from './tool-comments.ts'
import type { ToolIssue } from './tool-formats.ts'

/** Cells the decoder could not read as UTF-8 arrive as U+FFFD; such a row is refused, not guessed at. */
const REPLACEMENT = '\uFFFD'

function checkIssue(issue: ToolIssue): void {
  if (!issue.title) throw new RowError('The title is empty.', 'title')
  if (issue.title.length > 500) throw new RowError('The title is longer than 500 characters.', 'title')
  for (const [field, value] of Object.entries({
    title: issue.title,
    description: issue.description,
    state: issue.state.name,
    assignee: issue.assignee,
    labels: issue.labels.join(','),
    comments: issue.comments.map((c) => c.body).join(''),
  }))
    if (value?.includes(REPLACEMENT))
      throw new RowError(
        'The row has bytes that are not UTF-8 (shown as \uFFFD); save the file as UTF-8 and import it again.',
        field,
      )
}

/** The team's state: by name, else the first of the category the source gives, else the default. */
async function stateFor(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  issue: ToolIssue,
  notes: string[],
): Promise<StateId> {
  const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
  const name = issue.state.name?.toLowerCase()
  const named = name ? states.find((s) => s.name.toLowerCase() === name) : undefined
  if (named) return named.id
  const byCategory = states.find((s) => s.category === issue.state.category) ?? states[0]
  if (!byCategory) throw new RowError('The team has no active workflow state.', 'state')
  if (issue.state.name)
    notes.push(
      `The team has no state named \`${issue.state.name}\`; the task is in \`${byCategory.name}\` (${issue.state.category}).`,
    )
  return byCategory.id
}

/**
 * The member for an email, name or login. An unknown email is invited (once: a pending invitation
 * is reused) and the task waits unassigned; a name with no member and no email is a note. Never dropped silently.
 */
async function assigneeFor(
  ctx: OperationContext,
  orgId: OrgId,
  issue: ToolIssue,
  resolver: Resolver,
  notes: string[],
  dryRun: boolean,
): Promise<MemberId | null> {
  const who = issue.assignee
  if (!who) return null
  const member = await resolver.person(who)
  if (member) return member.id
  if (!who.includes('@')) {
    notes.push(`No member is named \`${who}\` and the export has no email for them; the task is unassigned.`)
    return null
  }
  const email = who.toLowerCase()
  notes.push(
    `${email} is not a member: ${await inviteUnknown(ctx, orgId, email, dryRun)}; the task is unassigned until they join.`,
  )
  return null
}

async function labelsFor(ctx: OperationContext, orgId: OrgId, teamId: TeamId, names: string[]) {
  const ids: LabelId[] = []
  for (const name of names) {
    const found =
      (await ctx.store.labels.findActiveByName(orgId, teamId, name)) ??
      (await ctx.store.labels.findActiveByName(orgId, null, name)) ??
      (await createLabel(ctx, { name, teamId }))
    if (found.isGroup) throw new RowError(`\`${name}\` is a label group, not a label.`, 'labels')
    if (!ids.includes(found.id)) ids.push(found.id)
  }
  return ids
}

/** A record the source names by a key of its own (a project, a cycle): created once, then reused. */
async function mappedOrCreated<T extends string>(
  ctx: OperationContext,
  orgId: OrgId,
  sourceKey: string,
  type: string,
  create: () => Promise<T>,
): Promise<T> {
  const found = await ctx.store.imports.mapping(orgId, sourceKey)
  if (found) return found.id as T
  const id = await create()
  await ctx.store.imports.map(orgId, sourceKey, { type, id })
  return id
}

async function cycleFor(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  issue: ToolIssue,
  notes: string[],
): Promise<CycleId | null> {
  const cycle = issue.cycle
  if (!cycle) return null
  const prefix = issue.sourceKey.split(':')[0]
  const key = `${prefix}:cycle:${teamId}:${cycle.number}`
  const found = await ctx.store.imports.mapping(orgId, key)
  if (found) return found.id as CycleId
  try {
    const created = await createCycle(ctx, teamId, {
      name: cycle.name,
      startsAt: cycle.startsAt,
      endsAt: cycle.endsAt,
    })
    await ctx.store.imports.map(orgId, key, { type: 'cycle', id: created.id })
    return created.id
  } catch (error) {
    if (!(error instanceof ProblemError)) throw error
    notes.push(`Cycle ${cycle.number} was not created (${error.message}); the task is in no cycle.`)
    return null
  }
}

/** The fields a task of this issue has, except what is only set once (links, creation). */
type IssueFields = Required<
  Pick<
    TaskFields,
    | 'title'
    | 'description'
    | 'stateId'
    | 'assigneeId'
    | 'priority'
    | 'estimate'
    | 'dueDate'
    | 'labelIds'
    | 'projectId'
    | 'cycleId'
  >
>

const sameLabels = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((id) => b.includes(id))

/** What differs between the task and the fields the source gives it now; empty when nothing does. */
function difference(task: Task, fields: IssueFields): Partial<IssueFields> {
  const changed: Partial<IssueFields> = {}
  for (const [k, v] of Object.entries(fields) as Array<[keyof IssueFields, unknown]>) {
    if (k === 'labelIds') {
      if (!sameLabels(task.labelIds, fields.labelIds)) changed.labelIds = fields.labelIds
    } else if (task[k] !== v) (changed as Record<string, unknown>)[k] = v
  }
  return changed
}

/**
 * Creates or updates the task of one issue of another tool in `teamId`, matched by the issue's
 * source key: an issue imported before is updated where the source changed (and counted as
 * skipped where it did not), so importing the same file again changes nothing.
 */
export async function applyToolIssue(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  issue: ToolIssue,
  resolver: Resolver,
  options: { dryRun: boolean },
): Promise<RowResult> {
  if (issue.skip) return { outcome: 'skipped', notes: [] }
  checkIssue(issue)
  if (issue.kind === 'project') return epicProject(ctx, orgId, teamId, issue)
  const notes: string[] = [...issue.notes]
  const stateId = await stateFor(ctx, orgId, teamId, issue, notes)
  const assigneeId = await assigneeFor(ctx, orgId, issue, resolver, notes, options.dryRun)
  const labelIds = await labelsFor(ctx, orgId, teamId, issue.labels)
  const tool = issue.sourceKey.split(':')[0]
  const project = issue.project
  const projectKey = project && (project.key ?? `${tool}:project:${project.name}`)
  let projectId = project
    ? await mappedOrCreated<ProjectId>(ctx, orgId, projectKey!, 'project', async () => {
        const created = await createProject(ctx, {
          name: project.name,
          teamIds: [teamId],
          targetDate: project.targetDate,
        })
        return created.id
      })
    : null
  // A parent imported as a project (a Jira epic met earlier in the file, or in an earlier run) is the task's project.
  const parent = issue.parentKey ? await ctx.store.imports.mapping(orgId, issue.parentKey) : null
  if (!projectId && parent?.type === 'project') projectId = parent.id as ProjectId
  const cycleId = await cycleFor(ctx, orgId, teamId, issue, notes)
  const fields: IssueFields = {
    title: issue.title,
    description: issue.description,
    stateId,
    assigneeId,
    priority: issue.priority,
    estimate: issue.estimate,
    dueDate: issue.dueDate,
    labelIds,
    projectId,
    cycleId,
  }
  const known = await ctx.store.imports.mapping(orgId, issue.sourceKey)
  const task = known ? await ctx.store.tasks.get(orgId, known.id as TaskId, UNSCOPED) : null
  if (task) {
    // An issue whose person is not a member yet keeps the assignee someone gave it here.
    if (assigneeId === null && issue.assignee) delete (fields as Partial<IssueFields>).assigneeId
    const changed = difference(task, fields)
    if (Object.keys(changed).length) await updateTask(ctx, task.id, changed)
    const posted = await applyToolComments(ctx, orgId, task.id, issue, resolver, notes, options.dryRun)
    await mapAliases(ctx, orgId, issue, task.id)
    return { outcome: Object.keys(changed).length || posted ? 'updated' : 'skipped', notes }
  }
  const created = await createTask(ctx, { teamId, ...fields })
  if (issue.url) await createLink(ctx, 'task', created.id, { url: issue.url, title: issue.key })
  if (known) await ctx.store.imports.unmap(orgId, issue.sourceKey)
  await ctx.store.imports.map(orgId, issue.sourceKey, { type: 'task', id: created.id })
  await mapAliases(ctx, orgId, issue, created.id)
  await applyToolComments(ctx, orgId, created.id, issue, resolver, notes, options.dryRun)
  return { outcome: 'created', notes }
}

/** The other keys the file may name the issue by point at its record too (kept current: a task made anew moves them). */
async function mapAliases(ctx: OperationContext, orgId: OrgId, issue: ToolIssue, id: string): Promise<void> {
  for (const alias of issue.aliases) {
    const found = await ctx.store.imports.mapping(orgId, alias)
    if (found?.id === id) continue
    if (found) await ctx.store.imports.unmap(orgId, alias)
    await ctx.store.imports.map(orgId, alias, { type: issue.kind, id })
  }
}

/** A Jira epic: a project of the team, created once under the epic's key; its children join it in the second pass. */
async function epicProject(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  issue: ToolIssue,
): Promise<RowResult> {
  const known = await ctx.store.imports.mapping(orgId, issue.sourceKey)
  if (known && (await ctx.store.projects.get(orgId, known.id as ProjectId, UNSCOPED)))
    return { outcome: 'skipped', notes: issue.notes }
  if (known) await ctx.store.imports.unmap(orgId, issue.sourceKey)
  const created = await createProject(ctx, {
    name: issue.title,
    teamIds: [teamId],
    description: issue.description,
    targetDate: issue.dueDate,
  })
  await ctx.store.imports.map(orgId, issue.sourceKey, { type: 'project', id: created.id })
  await mapAliases(ctx, orgId, issue, created.id)
  return { outcome: 'created', notes: [...issue.notes, `${issue.key} is an epic: imported as a project.`] }
}

/**
 * The second pass: once every issue of the file is a task, sets each one's parent and blockers.
 * A link the engine refuses (a parent that would close a cycle, an issue not in the file) is a
 * note on the row; the task stays as it is.
 */
export async function linkToolIssue(
  ctx: OperationContext,
  orgId: OrgId,
  issue: ToolIssue,
): Promise<string[]> {
  if (issue.skip || issue.kind === 'project') return []
  if (!issue.parentKey && issue.blockedBy.length === 0 && issue.blocks.length === 0) return []
  const own = await ctx.store.imports.mapping(orgId, issue.sourceKey)
  if (!own) return []
  const notes: string[] = []
  const taskOf = async (key: string) => {
    const found = await ctx.store.imports.mapping(orgId, key)
    return found?.type === 'task' ? (found.id as TaskId) : undefined
  }
  const shown = (key: string) => key.slice(key.indexOf(':') + 1)
  const parent = issue.parentKey ? await ctx.store.imports.mapping(orgId, issue.parentKey) : null
  if (issue.parentKey && parent?.type === 'project') {
    // The parent is an epic imported as a project: the task joins it.
    await updateTask(ctx, own.id as TaskId, { projectId: parent.id as ProjectId })
  } else if (issue.parentKey) {
    const parentId = parent?.id as TaskId | undefined
    if (!parentId) notes.push(`The parent ${shown(issue.parentKey)} is not in this import; no parent set.`)
    else {
      try {
        await updateTask(ctx, own.id as TaskId, { parentId })
      } catch (error) {
        if (!(error instanceof ProblemError)) throw error
        notes.push(`The parent ${shown(issue.parentKey)} was not set: ${error.message}`)
      }
    }
  }
  // Blockers of this issue, and issues it blocks: [blocked, blocker] pairs, one of them this task.
  const pairs: Array<[string | undefined, string | undefined, string]> = []
  for (const k of issue.blockedBy) pairs.push([own.id, await taskOf(k), k])
  for (const k of issue.blocks) pairs.push([await taskOf(k), own.id, k])
  for (const [blockedId, blockerId, key] of pairs) {
    if (!blockedId || !blockerId) {
      notes.push(`The linked issue ${shown(key)} is not in this import; no blocking link set.`)
      continue
    }
    try {
      await addBlocker(ctx, blockedId as TaskId, blockerId as TaskId)
    } catch (error) {
      if (!(error instanceof ProblemError)) throw error
      notes.push(`${shown(key)} was not linked as blocking: ${error.message}`)
    }
  }
  return notes
}

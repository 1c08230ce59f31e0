import { isProblem, type OrgId, type Task } from '@workgraph/core'
import { taskRows } from '../rows.ts'
import type { ToolCall } from '../types.ts'

/** How many comments, links and subtasks `get_task` shows; more are a `nextCursor` away. */
const DETAIL_LIMIT = 25
/** Longest comment body `get_task` shows. */
const BODY_LIMIT = 1000

export const clip = (text: string, limit: number) =>
  text.length > limit ? `${text.slice(0, limit)}… (truncated; ${text.length} characters)` : text

/** People by member id, `Ada Lovelace <ada@example.com>`; agents and unknown ids stay ids. */
export async function peopleOf(call: ToolCall, orgId: OrgId): Promise<Map<string, string>> {
  const page = await call.run('members.list', { params: { orgId }, query: { limit: 200 } })
  return new Map(
    (page.data as { id: string; name: string; email: string }[]).map((m) => [m.id, `${m.name} <${m.email}>`]),
  )
}

/** A container the task sits in, by id and name; a 404 (one the caller may not view) leaves the name out. */
async function container(call: ToolCall, operationId: string, params: Record<string, string>, id: string) {
  try {
    const found = await call.run(operationId, { params })
    return { id, name: found.name as string }
  } catch (error) {
    if (isProblem(error) && error.status === 404) return { id, name: null }
    throw error
  }
}

const brief = (t: Task) => ({ key: t.key, title: t.title, state: t.stateCategory })

/**
 * A task as `get_task` shows it: its compact row and fields, labels by name, its project, milestone
 * and cycle (ids and names), parent and
 * subtasks, blockers and blocked tasks, relations, and its comments as threads (each capped).
 */
export async function taskDetail(call: ToolCall, orgId: OrgId, task: Task, fields: readonly string[]) {
  const taskId = task.id
  const params = { orgId, taskId }
  const page = { limit: DETAIL_LIMIT }
  const [row] = await taskRows(call, orgId, [task], fields)
  const [
    labels,
    project,
    milestone,
    cycle,
    parent,
    children,
    blockers,
    blocking,
    relations,
    comments,
    people,
  ] = await Promise.all([
    Promise.all(task.labelIds.map((labelId) => call.run('labels.get', { params: { orgId, labelId } }))),
    task.projectId
      ? container(call, 'projects.get', { orgId, projectId: task.projectId }, task.projectId)
      : null,
    task.milestoneId
      ? container(call, 'milestones.get', { orgId, milestoneId: task.milestoneId }, task.milestoneId)
      : null,
    task.cycleId ? call.run('cycles.get', { params: { orgId, cycleId: task.cycleId } }) : null,
    task.parentId ? call.run('tasks.get', { params: { orgId, taskId: task.parentId } }) : null,
    call.run('tasks.children.list', { params, query: page }),
    call.run('tasks.blockers.list', { params, query: page }),
    call.run('tasks.blocking.list', { params, query: page }),
    call.run('tasks.relations.list', { params, query: page }),
    call.run('tasks.comments.list', { params, query: { limit: 50 } }),
    peopleOf(call, orgId),
  ])
  const threads: Record<string, unknown>[] = []
  const byRoot = new Map<string, Record<string, unknown>[]>()
  for (const c of comments.data as any[]) {
    const entry = {
      id: c.id,
      author: people.get(c.authorId) ?? c.authorId,
      body: c.deletedAt ? '(deleted)' : clip(c.body, BODY_LIMIT),
      at: c.createdAt,
      ...(c.resolvedAt ? { resolved: true } : {}),
    }
    if (c.parentId) {
      const replies = byRoot.get(c.parentId)
      if (replies) replies.push(entry)
      else threads.push({ ...entry, replyTo: c.parentId })
    } else {
      const replies: Record<string, unknown>[] = []
      byRoot.set(c.id, replies)
      threads.push({ ...entry, replies })
    }
  }
  return {
    ...row,
    isBlocked: task.isBlocked,
    labels: labels.map((l: any) => l.name),
    project,
    milestone,
    cycle: cycle ? { id: cycle.id, number: cycle.number, name: cycle.name, status: cycle.status } : null,
    parent: parent ? brief(parent) : null,
    subtasks: children.data.map(brief),
    blockedBy: blockers.data.map(brief),
    blocks: blocking.data.map(brief),
    relations: relations.data.map((r: any) => ({ type: r.type, ...brief(r.task) })),
    comments: threads,
    more: {
      subtasks: children.nextCursor !== null,
      blockedBy: blockers.nextCursor !== null,
      blocks: blocking.nextCursor !== null,
      relations: relations.nextCursor !== null,
      comments: comments.nextCursor !== null,
    },
  }
}

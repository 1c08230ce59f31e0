import type { OrgId, Task } from '@workgraph/core'
import type { ToolCall } from './types.ts'

/** Task fields a caller may add to the compact rows with `fields`. */
export const TASK_FIELDS = [
  'id',
  'description',
  'estimate',
  'dueDate',
  'startDate',
  'stateCategory',
  'isBlocked',
  'creatorId',
  'createdAt',
  'updatedAt',
  'startedAt',
  'completedAt',
  'canceledAt',
  'archivedAt',
] as const

/** Longest description a row carries; a model can ask `get_task` for one task at a time. */
const DESCRIPTION_LIMIT = 2000

/**
 * Turns tasks into small rows a model reads cheaply: key, title, state and assignee by name,
 * priority; more only when asked. State and people names are read once per call.
 */
export async function taskRows(
  call: ToolCall,
  orgId: OrgId,
  tasks: Task[],
  fields: readonly string[] = [],
): Promise<Record<string, unknown>[]> {
  const names = await namesFor(call, orgId, tasks)
  return tasks.map((t) => {
    const row: Record<string, unknown> = {
      key: t.key,
      title: t.title,
      state: names.states.get(t.stateId) ?? t.stateCategory,
      assignee: t.assigneeId ? (names.people.get(t.assigneeId) ?? t.assigneeId) : null,
      priority: t.priority,
    }
    for (const f of fields) {
      const value = t[f as keyof Task]
      row[f] =
        f === 'description' && typeof value === 'string' && value.length > DESCRIPTION_LIMIT
          ? `${value.slice(0, DESCRIPTION_LIMIT)}… (truncated; ${value.length} characters)`
          : value
    }
    return row
  })
}

async function namesFor(call: ToolCall, orgId: OrgId, tasks: Task[]) {
  const states = new Map<string, string>()
  for (const teamId of new Set(tasks.map((t) => t.teamId))) {
    const page = await call.run('states.list', { params: { orgId, teamId } })
    for (const s of page.data as { id: string; name: string }[]) states.set(s.id, s.name)
  }
  const people = new Map<string, string>()
  if (tasks.some((t) => t.assigneeId)) {
    const page = await call.run('members.list', { params: { orgId }, query: { limit: 200 } })
    for (const m of page.data as { id: string; name: string; email: string }[])
      people.set(m.id, `${m.name} <${m.email}>`)
  }
  return { states, people }
}

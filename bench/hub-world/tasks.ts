/**
 * The tasks of the bulk and what hangs on each in its own tables: the task row (number, board and
 * cycle ranks), its history, its subscribers and its dependencies, and the events of its creation,
 * completion and archiving.
 */
import { newId, ranksInOrder } from '@workgraph/core'
import { type Bulk, type BulkContext, HOUR, iso, RARE_WORD, type Row, shiftDay, WORDS } from './shared.ts'

const isCompleted = (n: number) => n % 20 === 5
const inCycle = (n: number) => n % 30 === 0
/** Hours ago: 1–20 or 30–47, by the task's place among the completed ones. */
const completedAgo = (n: number) => {
  const k = Math.floor(n / 20) % 38
  return (k < 20 ? k + 1 : k + 10) * HOUR
}

/**
 * Adds task `n` of the workspace to `bulk` (see `bulkOrg` for who gets what), answering what the
 * other families need of it. `states`: the team's backlog and completed states.
 */
export function taskFamily(ctx: BulkContext, states: { backlog: string; done: string }) {
  const { orgId, teamId, cycleId, memberId, ownerMemberId, count, now, today, o, start } = ctx
  const ids = Array.from({ length: count }, () => newId('TaskId'))
  const completedCount = Array.from({ length: count }, (_, n) => n).filter(isCompleted).length
  const boardRanks = { backlog: ranksInOrder(count - completedCount), done: ranksInOrder(completedCount) }
  const cycleRanks = ranksInOrder(Math.ceil(count / 30))
  let backlogAt = 0
  let doneAt = 0
  return (bulk: Bulk, n: number) => {
    const id = ids[n]!
    const createdAt = iso(start + n * 60_000)
    const assigned = n % 10 === 0
    const completed = isCompleted(n)
    const completedAt = completed ? iso(now - completedAgo(n)) : null
    const archivedAt = n % 100 === 99 ? createdAt : null
    const title = `${WORDS[n % WORDS.length]} ${WORDS[(n * 7 + 3) % WORDS.length]} task ${n}`
    const description = `About ${WORDS[(n * 3 + 1) % WORDS.length]} in workspace ${o}${n % 199 === 0 ? ` ${RARE_WORD}` : ''}`
    const dueDate = assigned ? shiftDay(today, ((n / 10) % 9) - 4) : null
    const cycle = inCycle(n)
    const blockerIds =
      assigned && n % 40 === 0 && n + 5 < count ? [ids[n + 5]!, ...(n % 80 === 0 ? [ids[n + 1]!] : [])] : []
    const row: Row = {
      orgId,
      id,
      teamId,
      number: n + 1,
      title,
      description,
      // Created in the backlog; the completed ones moved later (their history and event say so).
      stateId: states.backlog,
      assigneeId: assigned ? memberId : null,
      creatorId: ownerMemberId,
      priority: 'none',
      estimate: null,
      dueDate,
      startDate: null,
      parentId: null,
      createdAt,
      updatedAt: createdAt,
      startedAt: null,
      completedAt: null,
      canceledAt: null,
      archivedAt: null,
      deletedAt: null,
      cycleId: cycle ? cycleId : null,
      projectId: null,
      milestoneId: null,
      boardRank: '',
      projectRank: null,
      cycleRank: cycle ? cycleRanks[n / 30]! : null,
    }
    const view = taskView(row, 'backlog')
    const created = newId('EventId')
    const event = (at: number, kind: string, data: Row) =>
      bulk.events.push({
        at,
        event: {
          id: kind === 'task.created' ? created : newId('EventId'),
          kind,
          actorId: ownerMemberId,
          resourceType: 'task',
          resourceId: id,
          teamId,
          data,
          createdAt: iso(at),
        },
      })
    event(start + n * 60_000, 'task.created', { task: view })
    bulk.history.push(historyEntry(row, 'created', null, { key: view.key, title }, createdAt))
    bulk.subscribers.push({ orgId, taskId: id, actorId: ownerMemberId, createdAt })
    if (assigned) bulk.subscribers.push({ orgId, taskId: id, actorId: memberId, createdAt })
    if (completed) {
      row.stateId = states.done
      row.completedAt = completedAt
      row.updatedAt = completedAt
      event(now - completedAgo(n), 'task.updated', {
        task: taskView(row, 'completed'),
        changes: {
          stateId: { before: states.backlog, after: states.done },
          completedAt: { before: null, after: completedAt },
        },
      })
      bulk.history.push(historyEntry(row, 'stateId', states.backlog, states.done, completedAt!))
    }
    if (archivedAt) {
      row.archivedAt = archivedAt
      event(start + n * 60_000 + 2000, 'task.archived', { task: taskView(row, 'backlog') })
      bulk.history.push(historyEntry(row, 'archivedAt', null, archivedAt, archivedAt))
    }
    row.boardRank = completed ? boardRanks.done[doneAt++]! : boardRanks.backlog[backlogAt++]!
    bulk.tasks.push(row)
    for (const blockerId of blockerIds)
      bulk.dependencies.push({ orgId, blockerId, blockedId: id, createdBy: ownerMemberId, createdAt })
    bulk.seedTasks.push({
      orgId,
      id,
      title,
      description,
      assigned,
      dueDate,
      completedAt,
      archived: archivedAt !== null,
      inCycle: cycle,
      blockerIds,
    })
    return { id, assigned, view, createdEventId: created }
  }
}

function historyEntry(task: Row, field: string, before: unknown, after: unknown, createdAt: string) {
  return {
    id: newId('TaskHistoryId'),
    orgId: task.orgId,
    taskId: task.id,
    actorId: task.creatorId,
    automation: null,
    field,
    before,
    after,
    createdAt,
  }
}

/** The task as `tasks.get` shows it (what `newTask` builds), for the events' data. */
function taskView(row: Row, stateCategory: string) {
  return {
    id: row.id,
    orgId: row.orgId,
    teamId: row.teamId,
    key: `ENG-${row.number}`,
    number: row.number,
    title: row.title,
    description: row.description,
    stateId: row.stateId,
    stateCategory,
    assigneeId: row.assigneeId,
    creatorId: row.creatorId,
    priority: row.priority,
    estimate: row.estimate,
    dueDate: row.dueDate,
    startDate: row.startDate,
    parentId: row.parentId,
    isBlocked: false,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    startedAt: row.startedAt,
    completedAt: row.completedAt,
    canceledAt: row.canceledAt,
    archivedAt: row.archivedAt,
    cycleId: row.cycleId,
    projectId: row.projectId,
    milestoneId: row.milestoneId,
    labelIds: [],
    fields: {},
  }
}

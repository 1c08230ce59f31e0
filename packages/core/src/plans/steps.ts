import type { Comment } from '../comments/schemas.ts'
import type { Cycle } from '../cycles/schemas.ts'
import type { MemberId, ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Label } from '../labels/schemas.ts'
import type { Milestone, Project } from '../projects/schemas.ts'
import type { Task } from '../tasks/schemas.ts'
import type { Team, WorkflowState } from '../teams/schemas.ts'
import type { StatusUpdate } from '../updates/schemas.ts'
import { ACTIONS, LABEL_FIELDS, type RecordType, type Ref, TASK_FIELDS } from './actions.ts'
import { resolveMilestone } from './container-refs.ts'
import { resolveCycle, resolveLabel, resolveState } from './refs.ts'
import type { PlanStep, PlanStepResult } from './schemas.ts'

export interface StepOutcome {
  type: RecordType
  id: string
  teamId: string | null
  report: PlanStepResult
}

/** Operation and arguments per link kind: `task` blocks `other` is `other`'s blocker `task`. */
const LINK_OPS = {
  blocks: (task: string, other: string) => ({ add: 'tasks.blockers.add', a: other, b: task }),
  blocked_by: (task: string, other: string) => ({ add: 'tasks.blockers.add', a: task, b: other }),
  related: (task: string, other: string) => ({ add: 'tasks.relations.add', a: task, b: other }),
  duplicate_of: (task: string, other: string) => ({ add: 'tasks.relations.add', a: task, b: other }),
} as const

/**
 * Runs one step through the catalogue operation it stands for (`ctx.invoke`: that operation's
 * validation, capability check and events). Names resolved up front are in `names`; those that
 * waited on an earlier step (a `$handle`'s team) are resolved here, with the same rules.
 */
export async function runStep(
  ctx: OperationContext,
  step: PlanStep,
  i: number,
  names: Map<string, Ref | null>,
  handles: Map<string, Ref>,
): Promise<StepOutcome> {
  const pointer = (f: string) => `/body/steps/${i}/${f}`
  const ref = (
    field: 'task' | 'team' | 'other' | 'parent' | 'label' | 'cycle' | 'project' | 'milestone',
  ): Ref | undefined => {
    const value = step[field]
    if (typeof value !== 'string') return undefined
    return value.startsWith('$') ? handles.get(value.slice(1))! : (names.get(`${i}/${field}`) ?? undefined)
  }
  const must = (field: 'task' | 'team' | 'other' | 'project') => ref(field)!
  const milestoneOf = async (projectId: string) =>
    ref('milestone')?.id ??
    (await resolveMilestone(ctx, step.milestone!, projectId as ProjectId, pointer('milestone'))).id
  const stateOf = async (teamId: string) =>
    (names.get(`${i}/state`) ?? (await resolveState(ctx, teamId as TeamId, step.state!, pointer('state')))).id
  const labelOf = async (teamId: string | null) =>
    ref('label')?.id ??
    (await resolveLabel(ctx, step.label!, (teamId ?? undefined) as TeamId | undefined, pointer('label'))).id
  const cycleOf = async (teamId: string) =>
    ref('cycle')?.id ?? (await resolveCycle(ctx, teamId as TeamId, step.cycle!, pointer('cycle'))).id
  const assignee = () => (step.assignee === null ? null : (names.get(`${i}/assignee`)!.id as MemberId))
  const invoke = (operationId: string, params: Record<string, unknown>, body?: unknown) =>
    ctx.invoke(operationId, { params, query: {}, body }, ctx.actor!)
  const readTask = async (taskId: string) => (await invoke('tasks.get', { taskId })) as Task
  const optional = (fields: (keyof PlanStep)[]) =>
    Object.fromEntries(fields.filter((f) => step[f] !== undefined).map((f) => [f, step[f]]))
  const given = [...new Set(ACTIONS[step.action].needs.concat(ACTIONS[step.action].takes))].filter(
    (f) => step[f] !== undefined && f !== 'task',
  )
  const taskBody = async (teamId: string) => ({
    ...optional([...TASK_FIELDS]),
    ...(step.state ? { stateId: await stateOf(teamId) } : {}),
    ...(step.assignee !== undefined ? { assigneeId: assignee() } : {}),
    ...(step.parent !== undefined ? { parentId: step.parent === null ? null : ref('parent')!.id } : {}),
    ...(step.cycle !== undefined ? { cycleId: await cycleOf(teamId) } : {}),
  })

  switch (step.action) {
    case 'create_task': {
      const team = must('team')
      const body = { teamId: team.id, ...(await taskBody(team.id)) }
      return taskOutcome(step, i, (await invoke('tasks.create', {}, body)) as Task, given)
    }
    case 'update_task':
    case 'move_task':
    case 'assign_task':
    case 'set_parent': {
      const task = must('task')
      const body = await taskBody(task.teamId!)
      return taskOutcome(step, i, (await invoke('tasks.update', { taskId: task.id }, body)) as Task, given)
    }
    case 'archive_task':
    case 'restore_task': {
      const op = step.action === 'archive_task' ? 'tasks.archive' : 'tasks.restore'
      return taskOutcome(step, i, (await invoke(op, { taskId: must('task').id })) as Task, ['archivedAt'])
    }
    case 'label_task':
    case 'unlabel_task': {
      const task = must('task')
      const labelId = await labelOf(task.teamId)
      if (step.action === 'label_task') {
        const updated = (await invoke('tasks.labels.add', { taskId: task.id, labelId })) as Task
        return taskOutcome(step, i, updated, ['labels'])
      }
      // A removal answers nothing (204): the outcome reads the task as it now is.
      await invoke('tasks.labels.remove', { taskId: task.id, labelId })
      return taskOutcome(step, i, await readTask(task.id), ['labels'])
    }
    case 'link_tasks':
    case 'unlink_tasks': {
      const task = must('task')
      const other = must('other')
      const link = LINK_OPS[step.link!](task.id, other.id)
      if (step.action === 'link_tasks') {
        if (link.add === 'tasks.blockers.add') await invoke(link.add, { taskId: link.a, blockerId: link.b })
        else
          await invoke(
            link.add,
            { taskId: link.a, relatedTaskId: link.b },
            { type: step.link === 'related' ? 'related' : 'duplicateOf' },
          )
      } else if (link.add === 'tasks.blockers.add') {
        await invoke('tasks.blockers.remove', { taskId: link.a, blockerId: link.b })
      } else {
        await invoke('tasks.relations.remove', { taskId: link.a, relatedTaskId: link.b })
      }
      return taskOutcome(step, i, await readTask(task.id), [step.link!])
    }
    case 'comment': {
      const task = await readTask(must('task').id)
      const comment = (await invoke(
        'tasks.comments.create',
        { taskId: task.id },
        { body: step.body },
      )) as Comment
      return outcome(step, i, {
        type: 'comment',
        id: comment.id,
        teamId: task.teamId,
        key: task.key,
        name: task.title,
        changed: ['comments'],
      })
    }
    case 'add_to_cycle': {
      const task = must('task')
      const cycleId = await cycleOf(task.teamId!)
      await invoke('tasks.update', { taskId: task.id }, { cycleId })
      return taskOutcome(step, i, await readTask(task.id), ['cycle'])
    }
    case 'remove_from_cycle': {
      const task = must('task')
      const updated = (await invoke('tasks.update', { taskId: task.id }, { cycleId: null })) as Task
      return taskOutcome(step, i, updated, ['cycle'])
    }
    case 'create_team': {
      const team = (await invoke('teams.create', {}, optional(['name', 'key', 'description']))) as Team
      return outcome(step, i, {
        type: 'team',
        id: team.id,
        teamId: team.id,
        key: team.key,
        name: team.name,
        changed: given,
      })
    }
    case 'create_state': {
      const team = must('team')
      const body = optional(['name', 'category', 'color', 'description'])
      const state = (await invoke('states.create', { teamId: team.id }, body)) as WorkflowState
      return outcome(step, i, {
        type: 'state',
        id: state.id,
        teamId: team.id,
        key: null,
        name: state.name,
        changed: given,
      })
    }
    case 'create_cycle': {
      const team = must('team')
      const body = optional(['name', 'description', 'startsAt', 'endsAt'])
      const cycle = (await invoke('cycles.create', { teamId: team.id }, body)) as Cycle
      return outcome(step, i, {
        type: 'cycle',
        id: cycle.id,
        teamId: team.id,
        key: null,
        name: cycle.name ?? `Cycle ${cycle.number}`,
        changed: given,
      })
    }
    case 'create_label': {
      const team = ref('team')
      const body = { ...optional(['name', 'color', 'description']), ...(team ? { teamId: team.id } : {}) }
      const label = (await invoke('labels.create', {}, body)) as Label
      return labelOutcome(step, i, label, given)
    }
    case 'update_label':
    case 'archive_label': {
      const labelId = await labelOf(ref('team')?.teamId ?? null)
      const label = (
        step.action === 'update_label'
          ? await invoke('labels.update', { labelId }, optional([...LABEL_FIELDS]))
          : await invoke('labels.archive', { labelId })
      ) as Label
      return labelOutcome(
        step,
        i,
        label,
        step.action === 'update_label' ? given.filter((f) => f !== 'label' && f !== 'team') : ['archivedAt'],
      )
    }
    case 'subscribe': {
      const task = must('task')
      const actorId = step.person ? names.get(`${i}/person`)!.id : ctx.actor!.id
      await invoke('tasks.subscribers.add', { taskId: task.id, actorId })
      return taskOutcome(step, i, await readTask(task.id), ['subscribers'])
    }
    case 'add_link': {
      const task = must('task')
      await invoke('tasks.links.create', { taskId: task.id }, optional(['url', 'title']))
      return taskOutcome(step, i, await readTask(task.id), ['links'])
    }
    case 'create_project': {
      const team = must('team')
      const body = { ...optional(['name', 'description', 'priority']), teamIds: [team.id] }
      const project = (await invoke('projects.create', {}, body)) as Project
      return outcome(step, i, {
        type: 'project',
        id: project.id,
        teamId: team.id,
        key: null,
        name: project.name,
        changed: given,
      })
    }
    case 'create_milestone': {
      const project = must('project')
      const body = optional(['name', 'description', 'targetDate'])
      const milestone = (await invoke('milestones.create', { projectId: project.id }, body)) as Milestone
      return outcome(step, i, {
        type: 'milestone',
        id: milestone.id,
        teamId: project.teamId,
        key: null,
        name: milestone.name,
        changed: given.filter((f) => f !== 'project'),
      })
    }
    case 'add_to_project': {
      const task = must('task')
      const projectId = must('project').id
      const body = { projectId, ...(step.milestone ? { milestoneId: await milestoneOf(projectId) } : {}) }
      const updated = (await invoke('tasks.update', { taskId: task.id }, body)) as Task
      return taskOutcome(step, i, updated, step.milestone ? ['project', 'milestone'] : ['project'])
    }
    case 'post_update': {
      const project = (await invoke('projects.get', { projectId: must('project').id })) as Project
      const body = { body: step.body, health: step.health }
      const update = (await invoke(
        'projects.updates.create',
        { projectId: project.id },
        body,
      )) as StatusUpdate
      return outcome(step, i, {
        type: 'update',
        id: update.id,
        teamId: project.teamIds[0] ?? null,
        key: null,
        name: project.name,
        changed: ['health', 'body'],
      })
    }
    case 'react':
    case 'resolve_comment': {
      if (step.action === 'react' && step.task) {
        const task = must('task')
        await invoke('tasks.reactions.create', { taskId: task.id }, { emoji: step.emoji })
        return taskOutcome(step, i, await readTask(task.id), ['reactions'])
      }
      const commentId = step.comment!
      if (step.action === 'react')
        await invoke('comments.reactions.create', { commentId }, { emoji: step.emoji })
      else await invoke('comments.resolve', { commentId })
      const comment = (await invoke('comments.get', { commentId })) as Comment
      const changed = [step.action === 'react' ? 'reactions' : 'resolvedAt']
      // A comment on a project, milestone or update is reported by its subject's id.
      if (!comment.taskId) {
        const name = `${comment.subjectType} ${comment.subjectId}`
        return outcome(step, i, { type: 'comment', id: comment.id, teamId: null, key: null, name, changed })
      }
      const task = await readTask(comment.taskId)
      return outcome(step, i, {
        type: 'comment',
        id: comment.id,
        teamId: task.teamId,
        key: task.key,
        name: task.title,
        changed,
      })
    }
  }
}

function labelOutcome(step: PlanStep, i: number, label: Label, changed: string[]): StepOutcome {
  return outcome(step, i, {
    type: 'label',
    id: label.id,
    teamId: label.teamId,
    key: null,
    name: label.name,
    changed,
  })
}

function taskOutcome(step: PlanStep, i: number, task: Task, changed: string[]): StepOutcome {
  return outcome(step, i, {
    type: 'task',
    id: task.id,
    teamId: task.teamId,
    key: task.key,
    name: task.title,
    changed,
  })
}

function outcome(
  step: PlanStep,
  i: number,
  r: {
    type: RecordType | 'comment' | 'update'
    id: string
    teamId: string | null
    key: string | null
    name: string
    changed: string[]
  },
): StepOutcome {
  return {
    // A comment or an update has no handle, so what it stands for as a reference never matters.
    type: r.type === 'comment' || r.type === 'update' ? 'task' : r.type,
    id: r.id,
    teamId: r.teamId,
    report: {
      step: i,
      action: step.action,
      handle: step.handle ?? null,
      type: r.type,
      id: r.id,
      key: r.key,
      name: r.name,
      changed: r.changed,
    },
  }
}

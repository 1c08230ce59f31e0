import { DiscardChanges } from '../discard.ts'
import type { MemberId, TeamId } from '../ids.ts'
import type { OperationContext } from '../operation.ts'
import { type FieldError, isProblem, ProblemError } from '../problems.ts'
import { resolvePerson, resolveState, resolveTask, resolveTeam } from '../resolve/refs.ts'
import type { PlanAction, PlanReport, PlanStep, PlanStepResult } from '../schemas/plans.ts'
import type { Task } from '../schemas/tasks.ts'
import type { Team, WorkflowState } from '../schemas/teams.ts'

type RecordType = 'task' | 'team' | 'state'
/** What a name or a `$handle` stands for once resolved. */
interface Ref {
  type: RecordType | 'person'
  id: string
  teamId: string | null
}

const TASK_FIELDS = ['title', 'description', 'priority', 'estimate', 'dueDate'] as const

/** Per action: the fields it needs, the ones it takes, and what it creates (and so what its handle names). */
const ACTIONS: Record<
  PlanAction,
  { needs: (keyof PlanStep)[]; takes: (keyof PlanStep)[]; creates?: RecordType }
> = {
  create_task: { needs: ['team', 'title'], takes: ['state', 'assignee', ...TASK_FIELDS], creates: 'task' },
  update_task: { needs: ['task'], takes: ['state', 'assignee', ...TASK_FIELDS] },
  move_task: { needs: ['task', 'state'], takes: [] },
  assign_task: { needs: ['task', 'assignee'], takes: [] },
  archive_task: { needs: ['task'], takes: [] },
  restore_task: { needs: ['task'], takes: [] },
  create_team: { needs: ['name', 'key'], takes: ['description'], creates: 'team' },
  create_state: { needs: ['team', 'name', 'category'], takes: ['color', 'description'], creates: 'state' },
}

/** Which record type a reference field holds. */
const REF_TYPES: Partial<Record<keyof PlanStep, RecordType>> = { task: 'task', team: 'team' }

/**
 * Applies a plan in the caller's one transaction: checks its shape, resolves every name (reporting
 * all that fail at once), then runs each step through the catalogue operation it stands for, with
 * that operation's own permission checks. Any failure throws and so rolls back every step.
 */
export async function applyPlan(
  ctx: OperationContext,
  request: { steps: PlanStep[]; dryRun?: boolean },
): Promise<PlanReport> {
  checkShape(request.steps)
  const names = await resolveNames(ctx, request.steps)
  const handles = new Map<string, Ref>()
  const results: PlanStepResult[] = []
  for (const [i, step] of request.steps.entries()) {
    try {
      const result = await runStep(ctx, step, i, names, handles)
      if (step.handle) handles.set(step.handle, { type: result.type, id: result.id, teamId: result.teamId })
      results.push(result.report)
    } catch (error) {
      throw isProblem(error) ? atStep(error, i, step.action) : error
    }
  }
  const report: PlanReport = { dryRun: request.dryRun === true, steps: results }
  if (request.dryRun) throw new DiscardChanges(report)
  return report
}

function checkShape(steps: PlanStep[]): void {
  const errors: FieldError[] = []
  const declared = new Map<string, RecordType>()
  for (const [i, step] of steps.entries()) {
    const spec = ACTIONS[step.action]
    const allowed = new Set<string>(['action', 'handle', ...spec.needs, ...spec.takes])
    for (const field of spec.needs)
      if (step[field] === undefined)
        errors.push({ pointer: `/body/steps/${i}/${field}`, message: `Required by ${step.action}` })
    for (const field of Object.keys(step))
      if (!allowed.has(field))
        errors.push({ pointer: `/body/steps/${i}/${field}`, message: `Not used by ${step.action}` })
    if (step.action === 'update_task' && !spec.takes.some((f) => step[f] !== undefined))
      errors.push({ pointer: `/body/steps/${i}`, message: 'update_task needs at least one field to change' })
    for (const [field, type] of Object.entries(REF_TYPES)) {
      const value = step[field as keyof PlanStep]
      if (typeof value !== 'string' || !value.startsWith('$')) continue
      const found = declared.get(value.slice(1))
      if (found !== type)
        errors.push({
          pointer: `/body/steps/${i}/${field}`,
          message: found
            ? `${value} is a ${found}, not a ${type}`
            : `No earlier step has the handle ${value.slice(1)}`,
        })
    }
    if (step.handle) {
      if (!spec.creates)
        errors.push({ pointer: `/body/steps/${i}/handle`, message: `${step.action} creates nothing to name` })
      else if (declared.has(step.handle))
        errors.push({
          pointer: `/body/steps/${i}/handle`,
          message: `The handle ${step.handle} is used twice`,
        })
      else declared.set(step.handle, spec.creates)
    }
  }
  if (errors.length)
    throw new ProblemError(
      'validation_failed',
      `The plan has ${errors.length} problem(s); nothing was changed.`,
      { errors },
    )
}

/** Resolves every name that does not wait on an earlier step, keyed `step/field`. */
async function resolveNames(ctx: OperationContext, steps: PlanStep[]): Promise<Map<string, Ref | null>> {
  const found = new Map<string, Ref | null>()
  const failures: { pointer: string; error: ProblemError }[] = []
  const attempt = async (i: number, field: string, fn: () => Promise<Ref | null>) => {
    try {
      found.set(`${i}/${field}`, await fn())
    } catch (error) {
      if (!isProblem(error) || !['ambiguous_name', 'unknown_name', 'not_found'].includes(error.code))
        throw error
      failures.push({ pointer: `/body/steps/${i}/${field}`, error })
    }
  }
  for (const [i, step] of steps.entries()) {
    const pointer = (f: string) => `/body/steps/${i}/${f}`
    if (step.task && !step.task.startsWith('$'))
      await attempt(i, 'task', async () => {
        const t = await resolveTask(ctx, step.task!, pointer('task'))
        return { type: 'task', id: t.id, teamId: (t as Task).teamId }
      })
    if (step.team && !step.team.startsWith('$'))
      await attempt(i, 'team', async () => {
        const t = await resolveTeam(ctx, step.team!, pointer('team'))
        return { type: 'team', id: t.id, teamId: t.id }
      })
    if (typeof step.assignee === 'string')
      await attempt(i, 'assignee', async () => ({
        type: 'person',
        id: await resolvePerson(ctx, step.assignee!, pointer('assignee')),
        teamId: null,
      }))
    const owner = found.get(`${i}/team`) ?? found.get(`${i}/task`)
    if (step.state && owner?.teamId)
      await attempt(i, 'state', async () => {
        const s = await resolveState(ctx, owner.teamId as TeamId, step.state!, pointer('state'))
        return { type: 'state', id: s.id, teamId: s.teamId }
      })
  }
  if (failures.length) {
    const first = failures[0]!.error
    throw new ProblemError(
      first.code,
      `${failures.length} name(s) in the plan could not be resolved; nothing was changed. ${failures.map((f) => f.error.message).join(' ')}`,
      {
        errors: failures.map((f) => ({ pointer: f.pointer, message: f.error.message })),
        extensions: {
          unresolved: failures.map((f) => ({
            pointer: f.pointer,
            code: f.error.code,
            candidates: f.error.extensions.candidates ?? [],
          })),
        },
      },
    )
  }
  return found
}

interface StepOutcome {
  type: RecordType
  id: string
  teamId: string | null
  report: PlanStepResult
}

async function runStep(
  ctx: OperationContext,
  step: PlanStep,
  i: number,
  names: Map<string, Ref | null>,
  handles: Map<string, Ref>,
): Promise<StepOutcome> {
  const ref = (field: 'task' | 'team'): Ref => {
    const value = step[field]!
    return value.startsWith('$') ? handles.get(value.slice(1))! : names.get(`${i}/${field}`)!
  }
  const stateOf = async (teamId: string) =>
    (
      names.get(`${i}/state`) ??
      (await resolveState(ctx, teamId as TeamId, step.state!, `/body/steps/${i}/state`))
    ).id
  const assignee = () => (step.assignee === null ? null : (names.get(`${i}/assignee`)!.id as MemberId))
  const invoke = (operationId: string, params: Record<string, unknown>, body?: unknown) =>
    ctx.invoke(operationId, { params, query: {}, body }, ctx.actor!)
  const taskFields = () =>
    Object.fromEntries(TASK_FIELDS.filter((f) => step[f] !== undefined).map((f) => [f, step[f]]))
  const given = ACTIONS[step.action].needs
    .concat(ACTIONS[step.action].takes)
    .filter((f) => step[f] !== undefined && f !== 'task')

  switch (step.action) {
    case 'create_task': {
      const team = ref('team')
      const body = {
        teamId: team.id,
        ...taskFields(),
        ...(step.state ? { stateId: await stateOf(team.id) } : {}),
        ...(step.assignee !== undefined ? { assigneeId: assignee() } : {}),
      }
      return taskOutcome(step, i, (await invoke('tasks.create', {}, body)) as Task, given)
    }
    case 'update_task':
    case 'move_task':
    case 'assign_task': {
      const task = ref('task')
      const body = {
        ...taskFields(),
        ...(step.state ? { stateId: await stateOf(task.teamId!) } : {}),
        ...(step.assignee !== undefined ? { assigneeId: assignee() } : {}),
      }
      return taskOutcome(step, i, (await invoke('tasks.update', { taskId: task.id }, body)) as Task, given)
    }
    case 'archive_task':
    case 'restore_task': {
      const op = step.action === 'archive_task' ? 'tasks.archive' : 'tasks.restore'
      return taskOutcome(step, i, (await invoke(op, { taskId: ref('task').id })) as Task, ['archivedAt'])
    }
    case 'create_team': {
      const body = {
        name: step.name,
        key: step.key,
        ...(step.description !== undefined ? { description: step.description } : {}),
      }
      const team = (await invoke('teams.create', {}, body)) as Team
      return outcome(
        step,
        i,
        { type: 'team', id: team.id, teamId: team.id, key: team.key, name: team.name },
        given,
      )
    }
    case 'create_state': {
      const team = ref('team')
      const body = {
        name: step.name,
        category: step.category,
        ...(step.color !== undefined ? { color: step.color } : {}),
        ...(step.description !== undefined ? { description: step.description } : {}),
      }
      const state = (await invoke('workflowStates.create', { teamId: team.id }, body)) as WorkflowState
      return outcome(
        step,
        i,
        { type: 'state', id: state.id, teamId: team.id, key: null, name: state.name },
        given,
      )
    }
  }
}

function taskOutcome(step: PlanStep, i: number, task: Task, changed: string[]): StepOutcome {
  return outcome(
    step,
    i,
    { type: 'task', id: task.id, teamId: task.teamId, key: task.key, name: task.title },
    changed,
  )
}

function outcome(
  step: PlanStep,
  i: number,
  r: { type: RecordType; id: string; teamId: string | null; key: string | null; name: string },
  changed: string[],
): StepOutcome {
  return {
    type: r.type,
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
      changed,
    },
  }
}

/** The operation's field names, as the plan spells them. */
const PLAN_FIELDS: Record<string, string> = {
  stateId: 'state',
  assigneeId: 'assignee',
  teamId: 'team',
  taskId: 'task',
}

/** A step's failure, pointed at the step: the code (and so the status) is the operation's own. */
function atStep(error: ProblemError, i: number, action: string): ProblemError {
  if (error.extensions.step !== undefined) return error
  const errors = error.errors?.map((e) => ({
    pointer: `/body/steps/${i}${e.pointer.replace(/^\/(body|params)/, '').replace(/[A-Za-z]+Id$/, (f) => PLAN_FIELDS[f] ?? f)}`,
    message: e.message,
  }))
  return new ProblemError(error.code, `Step ${i} (${action}) failed: ${error.message} Nothing was changed.`, {
    ...(errors ? { errors } : {}),
    extensions: { ...error.extensions, step: i },
  })
}

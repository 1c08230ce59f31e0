import type { ProjectId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { DiscardChanges } from '../kernel/pipeline/discard.ts'
import { type FieldError, isProblem, ProblemError } from '../kernel/problems.ts'
import type { Task } from '../tasks/schemas.ts'
import { ACTIONS, LABEL_ACTIONS, LABEL_FIELDS, REF_TYPES, type RecordType, type Ref } from './actions.ts'
import { resolveMilestone, resolveProject } from './container-refs.ts'
import { resolveCycle, resolveLabel, resolvePerson, resolveState, resolveTask, resolveTeam } from './refs.ts'
import type { PlanReport, PlanStep, PlanStepResult } from './schemas.ts'
import { runStep } from './steps.ts'

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
    if (step.action === 'update_label' && !LABEL_FIELDS.some((f) => step[f] !== undefined))
      errors.push({ pointer: `/body/steps/${i}`, message: 'update_label needs at least one field to change' })
    if (step.action === 'react' && (step.task === undefined) === (step.comment === undefined))
      errors.push({ pointer: `/body/steps/${i}`, message: 'react needs either a task or a comment' })
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
      'rule_violated',
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
    for (const field of ['task', 'other', 'parent'] as const) {
      const value = step[field]
      if (typeof value === 'string' && !value.startsWith('$'))
        await attempt(i, field, async () => {
          const t = await resolveTask(ctx, value, pointer(field))
          return { type: 'task', id: t.id, teamId: (t as Task).teamId }
        })
    }
    if (step.team && !step.team.startsWith('$'))
      await attempt(i, 'team', async () => {
        const t = await resolveTeam(ctx, step.team!, pointer('team'))
        return { type: 'team', id: t.id, teamId: t.id }
      })
    if (step.person)
      await attempt(i, 'person', async () => ({
        type: 'person',
        id: await resolvePerson(ctx, step.person!, pointer('person')),
        teamId: null,
      }))
    if (typeof step.assignee === 'string')
      await attempt(i, 'assignee', async () => ({
        type: 'person',
        id: await resolvePerson(ctx, step.assignee!, pointer('assignee')),
        teamId: null,
      }))
    // States, cycles and labels are named within a team: the step's team, else its task's.
    // When that is a `$handle`, the name waits for the step itself (runStep resolves it then).
    const owner = found.get(`${i}/team`) ?? found.get(`${i}/task`)
    if (step.state && owner?.teamId)
      await attempt(i, 'state', async () => {
        const s = await resolveState(ctx, owner.teamId as TeamId, step.state!, pointer('state'))
        return { type: 'state', id: s.id, teamId: s.teamId }
      })
    if (step.cycle && !step.cycle.startsWith('$') && owner?.teamId)
      await attempt(i, 'cycle', async () => {
        const c = await resolveCycle(ctx, owner.teamId as TeamId, step.cycle!, pointer('cycle'))
        return { type: 'cycle', id: c.id, teamId: c.teamId }
      })
    // A label to update or archive may be named with no team at all (a workspace-wide look-up).
    const labelTeam = owner?.teamId ?? (LABEL_ACTIONS.includes(step.action) && !step.team ? null : undefined)
    if (step.label && !step.label.startsWith('$') && labelTeam !== undefined)
      await attempt(i, 'label', async () => {
        const team = (labelTeam ?? undefined) as TeamId | undefined
        const l = await resolveLabel(ctx, step.label!, team, pointer('label'))
        return { type: 'label', id: l.id, teamId: l.teamId }
      })
    if (step.project && !step.project.startsWith('$'))
      await attempt(i, 'project', async () => {
        const p = await resolveProject(ctx, step.project!, pointer('project'))
        return { type: 'project', id: p.id, teamId: p.teamIds[0] ?? null }
      })
    // A milestone is named within the step's project; a `$handle` project waits for the step.
    const project = found.get(`${i}/project`)
    if (step.milestone && !step.milestone.startsWith('$') && project)
      await attempt(i, 'milestone', async () => {
        const m = await resolveMilestone(ctx, step.milestone!, project.id as ProjectId, pointer('milestone'))
        return { type: 'milestone', id: m.id, teamId: project.teamId }
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
            candidates: (f.error.extensions.candidates ?? []) as { id: string; label: string }[],
          })),
        },
      },
    )
  }
  return found
}

/** The operation's field names, as the plan spells them. */
const PLAN_FIELDS: Record<string, string> = {
  stateId: 'state',
  assigneeId: 'assignee',
  teamId: 'team',
  taskId: 'task',
  parentId: 'parent',
  cycleId: 'cycle',
  labelId: 'label',
  commentId: 'comment',
  actorId: 'person',
  projectId: 'project',
  milestoneId: 'milestone',
}

/** A step's failure, pointed at the step: the code (and so the status) is the operation's own. */
function atStep(error: ProblemError, i: number, action: string): ProblemError {
  if (error.extensions.step !== undefined) return error
  const errors = error.errors?.map((e) => ({
    // Names resolved while the step runs already point into the plan.
    pointer: e.pointer.startsWith('/body/steps/')
      ? e.pointer
      : `/body/steps/${i}${e.pointer.replace(/^\/(body|params)/, '').replace(/[A-Za-z]+Id$/, (f) => PLAN_FIELDS[f] ?? f)}`,
    message: e.message,
  }))
  return new ProblemError(error.code, `Step ${i} (${action}) failed: ${error.message} Nothing was changed.`, {
    ...(errors ? { errors } : {}),
    extensions: { ...error.extensions, step: i },
  })
}

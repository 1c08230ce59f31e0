import type { SeedContext } from './context.ts'
import { DEMO_TASKS } from './demo-data.ts'

/** The tasks (assigned, dated, in projects and cycles, with field values), subtasks, links and comments. */
export function taskSteps(ctx: SeedContext): void {
  const { ids, step, count } = ctx
  const member = (person: string | undefined) =>
    person ? (ids.members.get(person as never) ?? null) : undefined
  for (const task of DEMO_TASKS) {
    step(`task:${task.ref}`, `Task ${task.title}`, async (key) => {
      const fields: Record<string, unknown> = {}
      if (task.impact) fields[ids.fields.get('impact')!] = ids.impactOptions.get(task.impact)
      if (task.site) fields[ids.fields.get('site')!] = task.site
      const assigneeId = member(task.assignee)
      const body = {
        teamId: ids.teams.get(task.team),
        title: task.title,
        ...(task.description ? { description: task.description } : {}),
        stateId: ids.states.get(`${task.team}/${task.state}`),
        priority: task.priority,
        ...(assigneeId ? { assigneeId } : {}),
        ...(task.estimate !== undefined ? { estimate: task.estimate } : {}),
        ...(task.due !== undefined ? { dueDate: ctx.day(task.due) } : {}),
        ...(task.labels ? { labelIds: task.labels.map((name) => ids.labels.get(name)) } : {}),
        ...(task.cycle ? { cycleId: ids.cycles.get(task.cycle) } : {}),
        ...(task.project ? { projectId: ids.projects.get(task.project) } : {}),
        ...(task.milestone ? { milestoneId: ids.milestones.get(`${task.project}/${task.milestone}`) } : {}),
        ...(Object.keys(fields).length ? { fields } : {}),
      }
      const created = await ctx.api.post<{ id: string; key: string }>(`${ctx.org()}/tasks`, body, key)
      ids.tasks.set(task.ref, created.id)
      ids.taskKeys.set(task.ref, created.key)
      count('tasks')
    })
    for (const [index, subtask] of (task.subtasks ?? []).entries()) {
      step(`subtask:${task.ref}:${index}`, `Subtask ${subtask.title}`, async (key) => {
        const body = {
          teamId: ids.teams.get(task.team),
          title: subtask.title,
          parentId: ids.tasks.get(task.ref),
          stateId: ids.states.get(`${task.team}/${subtask.state}`),
          ...(subtask.estimate !== undefined ? { estimate: subtask.estimate } : {}),
          ...(task.cycle ? { cycleId: ids.cycles.get(task.cycle) } : {}),
        }
        await ctx.api.post(`${ctx.org()}/tasks`, body, key)
        count('subtasks')
      })
    }
  }

  for (const task of DEMO_TASKS) {
    const path = () => `${ctx.org()}/tasks/${ids.tasks.get(task.ref)}`
    for (const blocker of task.blockedBy ?? []) {
      step(`blocker:${task.ref}:${blocker}`, `Dependency ${blocker} → ${task.ref}`, async () => {
        await ctx.api.put(`${path()}/blockers/${ids.tasks.get(blocker)}`)
        count('dependencies')
      })
    }
    for (const other of task.relatedTo ?? []) {
      step(`related:${task.ref}:${other}`, `Relation ${task.ref} ↔ ${other}`, async () => {
        await ctx.api.put(`${path()}/relations/${ids.tasks.get(other)}`, { type: 'related' })
        count('relations')
      })
    }
    for (const [index, comment] of (task.comments ?? []).entries()) {
      // A mention only means something from someone else: without teammates it is left out.
      if (comment.body.includes('{me}') && !ctx.withTeammates) continue
      let threadId = ''
      const text = (body: string) => body.replaceAll('{me}', ctx.handle)
      step(`comment:${task.ref}:${index}`, `Comment on ${task.ref}`, async (key) => {
        const by = ctx.as(comment.by ?? 'me')
        threadId = (await by.post(`${path()}/comments`, { body: text(comment.body) }, key)).id
        count(comment.body.includes('{me}') ? 'mentions of you' : 'comments')
      })
      for (const [n, reply] of (comment.replies ?? []).entries()) {
        step(`reply:${task.ref}:${index}:${n}`, `Reply on ${task.ref}`, async (key) => {
          await ctx
            .as(reply.by ?? 'me')
            .post(`${path()}/comments`, { body: text(reply.body), parentId: threadId }, key)
          count('comments')
        })
      }
    }
  }
}

import type { Api } from '../api.ts'
import type { Progress } from '../progress.ts'
import { DEMO_AGENTS, DEMO_LABELS, DEMO_TASKS, DEMO_TEAMS } from './demo-data.ts'

export interface SeedOptions {
  /** Names the run: every write carries `Idempotency-Key: workgraph-seed:{run}:{step}`. */
  run: string
  workspaceName: string
}

export interface SeedSummary {
  orgId: string
  slug: string
  counts: Record<string, number>
}

interface Step {
  label: string
  /** Unique within a run and stable across retries of it, so a resumed run replays instead of duplicating. */
  key: string
  perform(key: string): Promise<void>
}

const DAY = 86_400_000

/** The Monday (UTC) of the week the run was started, read from the run name (`20261125-…`). */
export function anchorOf(run: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})-/.exec(run)
  const date = match
    ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
    : new Date()
  const monday = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
  return new Date(monday.getTime() - ((monday.getUTCDay() + 6) % 7) * DAY)
}

export function newRunName(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '')
  return `${day}-${Math.random().toString(36).slice(2, 8)}`
}

/**
 * Creates a new demo workspace through the public API, one write per step. The steps read the
 * ids earlier steps got back, and since a replayed POST returns the first answer, running the same
 * `run` again after a failure continues where it stopped, creating nothing twice (within 24 h).
 */
export async function seedDemo(
  api: Api,
  options: SeedOptions,
  startProgress: (total: number) => Progress,
): Promise<SeedSummary> {
  const anchor = anchorOf(options.run)
  const date = (days: number) => new Date(anchor.getTime() + days * DAY).toISOString().slice(0, 10)
  const ids = {
    org: '',
    slug: '',
    teams: new Map<string, string>(),
    states: new Map<string, string>(), // `${teamKey}/${stateName}` → id
    labels: new Map<string, string>(),
    cycles: new Map<string, string>(),
    tasks: new Map<string, string>(),
  }
  const counts: Record<string, number> = {}
  const count = (what: string) => {
    counts[what] = (counts[what] ?? 0) + 1
  }
  const org = () => `/v1/orgs/${ids.org}`
  const steps: Step[] = []
  const step = (key: string, label: string, perform: (key: string) => Promise<void>) =>
    steps.push({ key, label, perform })

  step('org', `Workspace “${options.workspaceName}”`, async (key) => {
    const created = await api.post('/v1/orgs', { name: options.workspaceName }, key)
    ids.org = created.id
    ids.slug = created.slug ?? ''
  })

  for (const team of DEMO_TEAMS) {
    step(`team:${team.key}`, `Team ${team.name}`, async (key) => {
      const created = await api.post(
        `${org()}/teams`,
        { name: team.name, key: team.key, description: team.description },
        key,
      )
      ids.teams.set(team.key, created.id)
      const states = await api.get(`${org()}/teams/${created.id}/states`)
      for (const state of states.data) ids.states.set(`${team.key}/${state.name}`, state.id)
      count('teams')
    })
    for (const state of team.states) {
      step(`state:${team.key}:${state.name}`, `Workflow state ${team.key} ${state.name}`, async (key) => {
        const created = await api.post(`${org()}/teams/${ids.teams.get(team.key)}/states`, state, key)
        ids.states.set(`${team.key}/${state.name}`, created.id)
        count('workflow states')
      })
    }
  }

  for (const label of DEMO_LABELS) {
    step(`label:${label.name}`, `Label ${label.name}`, async (key) => {
      const body = {
        name: label.name,
        color: label.color,
        ...(label.isGroup ? { isGroup: true } : {}),
        ...(label.group ? { parentId: ids.labels.get(label.group) } : {}),
      }
      ids.labels.set(label.name, (await api.post(`${org()}/labels`, body, key)).id)
      count('labels')
    })
  }

  const cycles = [
    { name: 'current', title: 'Release 4.2 hardening', start: 0 },
    { name: 'next', title: 'Release 4.3', start: 14 },
  ]
  for (const cycle of cycles) {
    step(`cycle:${cycle.name}`, `Cycle ${cycle.title}`, async (key) => {
      const body = {
        name: cycle.title,
        startsAt: new Date(anchor.getTime() + cycle.start * DAY).toISOString(),
        endsAt: new Date(anchor.getTime() + (cycle.start + 14) * DAY).toISOString(),
      }
      ids.cycles.set(
        cycle.name,
        (await api.post(`${org()}/teams/${ids.teams.get('ENG')}/cycles`, body, key)).id,
      )
      count('cycles')
    })
  }

  for (const agent of DEMO_AGENTS) {
    step(`agent:${agent.name}`, `Agent ${agent.name}`, async (key) => {
      await api.post(`${org()}/agents`, agent, key)
      count('agents')
    })
  }

  for (const task of DEMO_TASKS) {
    step(`task:${task.ref}`, `Task ${task.title}`, async (key) => {
      const body = {
        teamId: ids.teams.get(task.team),
        title: task.title,
        ...(task.description ? { description: task.description } : {}),
        stateId: ids.states.get(`${task.team}/${task.state}`),
        priority: task.priority,
        ...(task.estimate !== undefined ? { estimate: task.estimate } : {}),
        ...(task.due !== undefined ? { dueDate: date(task.due) } : {}),
        ...(task.labels ? { labelIds: task.labels.map((name) => ids.labels.get(name)) } : {}),
        ...(task.cycle ? { cycleId: ids.cycles.get(task.cycle) } : {}),
      }
      ids.tasks.set(task.ref, (await api.post(`${org()}/tasks`, body, key)).id)
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
        await api.post(`${org()}/tasks`, body, key)
        count('subtasks')
      })
    }
  }

  for (const task of DEMO_TASKS) {
    for (const blocker of task.blockedBy ?? []) {
      step(`blocker:${task.ref}:${blocker}`, `Dependency ${blocker} → ${task.ref}`, async () => {
        await api.put(`${org()}/tasks/${ids.tasks.get(task.ref)}/blockers/${ids.tasks.get(blocker)}`)
        count('dependencies')
      })
    }
    for (const other of task.relatedTo ?? []) {
      step(`related:${task.ref}:${other}`, `Relation ${task.ref} ↔ ${other}`, async () => {
        await api.put(`${org()}/tasks/${ids.tasks.get(task.ref)}/relations/${ids.tasks.get(other)}`, {
          type: 'related',
        })
        count('relations')
      })
    }
    for (const [index, comment] of (task.comments ?? []).entries()) {
      let threadId = ''
      step(`comment:${task.ref}:${index}`, `Comment on ${task.ref}`, async (key) => {
        threadId = (
          await api.post(`${org()}/tasks/${ids.tasks.get(task.ref)}/comments`, { body: comment.body }, key)
        ).id
        count('comments')
      })
      for (const [reply, body] of (comment.replies ?? []).entries()) {
        step(`reply:${task.ref}:${index}:${reply}`, `Reply on ${task.ref}`, async (key) => {
          await api.post(
            `${org()}/tasks/${ids.tasks.get(task.ref)}/comments`,
            { body, parentId: threadId },
            key,
          )
          count('comments')
        })
      }
    }
  }

  const progress = startProgress(steps.length)
  for (const current of steps) {
    progress.tick(current.label)
    await current.perform(`workgraph-seed:${options.run}:${current.key}`)
  }
  progress.done()
  return { orgId: ids.org, slug: ids.slug, counts }
}

import type { SeedContext } from './context.ts'
import type { Person } from './demo-portfolio.ts'

/** How many tasks `--size large` adds by default: enough to page through and search. */
export const LARGE_TASKS = 5000
/** tasks.batchCreate's limit per call. */
const BATCH = 100
/** Comments are one write each: at most this many per person, well inside a person's 600 requests a minute. */
const COMMENTS_PER_PERSON = 150

const SITES = ['Lyon', 'Rotterdam', 'Leipzig', 'Turin', 'Bilbao', 'Gdansk', 'Porto', 'Ghent']
const VERBS = ['Fix', 'Investigate', 'Document', 'Speed up', 'Add tests for', 'Refactor', 'Monitor', 'Review']
const THINGS = [
  'gripper torque limits',
  'firmware signing',
  'fleet heartbeat',
  'console login',
  'battery telemetry',
  'e-stop recovery',
  'arm calibration',
  'update scheduler',
  'camera exposure',
  'path planner',
  'site VPN',
  'spare parts ledger',
]
const LABELS: (string | undefined)[] = ['Bug', 'Feature', 'Improvement', 'Customer']
const AREAS: (string | undefined)[] = ['Firmware', 'Backend', 'Console', undefined]
const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'] as const
const STATES = ['Backlog', 'Todo', 'In Progress', 'In Review', 'Done']
const TEAMS = ['ENG', 'OPS', 'DES']

/**
 * Thousands of tasks on top of the demo (a page of `tasks.list` is at most 200): `count` tasks in
 * calls of 100 to `tasks.batchCreate`, spread over the teams, the site projects, states, people,
 * labels and due dates, with titles varied enough for search, and a comment on every tenth.
 */
export function largeSteps(ctx: SeedContext, count: number): void {
  const { ids, step } = ctx
  for (const site of SITES) {
    step(`large:project:${site}`, `Project ${site} site rollout`, async (key) => {
      const body = {
        name: `${site} site rollout`,
        description: `Install, calibrate and hand over the R2 arms at the ${site} site.`,
        teamIds: [ids.teams.get('OPS'), ids.teams.get('ENG')],
        leadId: ids.members.get(SITES.indexOf(site) % 2 ? 'jonas' : 'maya') ?? ids.members.get('me'),
        targetDate: ctx.day(20 + 10 * SITES.indexOf(site)),
      }
      ids.projects.set(`site:${site}`, (await ctx.api.post(`${ctx.org()}/projects`, body, key)).id)
      ctx.count('projects')
    })
  }
  const people: Person[] = ctx.withTeammates ? ['me', 'maya', 'jonas'] : ['me']
  const created: string[] = []
  // One call at a time: two concurrent batches of mixed teams deadlock on Postgres (answered 500).
  for (let start = 0; start < count; start += BATCH) {
    const size = Math.min(BATCH, count - start)
    step(`large:tasks:${start}`, `Tasks ${start + 1}–${start + size}`, async (key) => {
      const items = Array.from({ length: size }, (_, i) => bulkTask(ctx, start + i, people))
      const answer = await ctx.api.post<{ data: { id: string }[] }>(
        `${ctx.org()}/tasks/batch-create`,
        { items },
        key,
      )
      for (const task of answer.data) created.push(task.id)
      ctx.count('tasks', answer.data.length)
    })
  }
  const comments = Math.min(COMMENTS_PER_PERSON * people.length, Math.floor(count / 25))
  const concurrent = 6
  for (let start = 0; start < comments; start += concurrent) {
    step(`large:comments:${start}`, `Comments ${start + 1}–${start + concurrent}`, async (key) => {
      const writes = Array.from({ length: Math.min(concurrent, comments - start) }, (_, i) => {
        const n = start + i
        const by = people[n % people.length]!
        const body = `${SITES[n % SITES.length]} reports the ${THINGS[n % THINGS.length]} issue again after the last update (#${n + 1}).`
        return ctx.as(by).post(`${ctx.org()}/tasks/${created[n * 25]}/comments`, { body }, `${key}:${i}`)
      })
      await Promise.all(writes)
      ctx.count('comments', writes.length)
    })
  }
}

function bulkTask(ctx: SeedContext, n: number, people: Person[]) {
  const { ids } = ctx
  const team = TEAMS[n % TEAMS.length]!
  const site = SITES[Math.floor(n / 7) % SITES.length]!
  const thing = THINGS[n % THINGS.length]!
  const labelIds = [LABELS[n % LABELS.length], AREAS[Math.floor(n / 4) % AREAS.length]]
    .filter((name): name is string => Boolean(name))
    .map((name) => ids.labels.get(name)!)
  const person = people[n % people.length]!
  const due = n % 3 === 0 ? undefined : (n % 91) - 30
  return {
    teamId: ids.teams.get(team),
    title: `${VERBS[n % VERBS.length]} ${thing} at ${site} (${n + 1})`,
    description: `Seen at the ${site} site on unit ${(n % 24) + 1}: the ${thing} needs attention.`,
    stateId: ids.states.get(`${team}/${STATES[n % STATES.length]}`),
    priority: PRIORITIES[n % PRIORITIES.length],
    // A fifth of the tasks are yours, so your own lists page too.
    ...(n % 5 === 0
      ? { assigneeId: ids.members.get('me') }
      : { assigneeId: ids.members.get(person) ?? null }),
    ...(due !== undefined ? { dueDate: ctx.day(due) } : {}),
    ...(team !== 'DES' && n % 2 === 0 ? { projectId: ids.projects.get(`site:${site}`) } : {}),
    labelIds,
  }
}

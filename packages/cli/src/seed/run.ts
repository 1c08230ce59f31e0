import type { Api } from '../api.ts'
import type { DiscoveredServer } from '../oauth/server.ts'
import type { Progress } from '../progress.ts'
import type { SeedContext, Step } from './context.ts'
import { largeSteps } from './large.ts'
import type { Mailbox } from './mailbox.ts'
import { attentionSteps } from './steps-attention.ts'
import { peopleSteps } from './steps-people.ts'
import { portfolioSteps, structureSteps } from './steps-portfolio.ts'
import { taskSteps } from './steps-tasks.ts'
import { workspaceSteps } from './steps-workspace.ts'
import { createTeammateSession, type TeammateAccount } from './teammates.ts'

export interface SeedOptions {
  /** Names the run: every write carries `Idempotency-Key: workgraph-seed:{run}:{step}`. */
  run: string
  workspaceName: string
  /**
   * Where the server's mail can be read, to make the two teammates (their sign-up and invitation
   * links). Without it the demo has you alone: no mention, and you drive the agent yourself.
   */
  teammates?: { server: DiscoveredServer; mailbox: Mailbox }
  /** `--size large`: this many more tasks (with comments and site projects) on top of the demo. */
  largeTasks?: number
}

export interface SeedSummary {
  orgId: string
  slug: string
  counts: Record<string, number>
  /** The teammates made, with the password each signs in with. */
  teammates: TeammateAccount[]
  /** What was left out and why. */
  notes: string[]
}

const DAY = 86_400_000

/** The day (UTC) a run started, read from its name (`20261125-…`). */
export function dayOf(run: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})-/.exec(run)
  const date = match
    ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))
    : new Date()
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()))
}

/** The Monday (UTC) of the week the run was started. */
export function anchorOf(run: string): Date {
  const day = dayOf(run)
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY)
}

export function newRunName(now = new Date()): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '')
  return `${day}-${Math.random().toString(36).slice(2, 8)}`
}

/** A workspace of yours with this name, if there is one: the demo is there already. */
export async function existingWorkspace(api: Api, name: string): Promise<{ id: string } | undefined> {
  let cursor: string | null = null
  do {
    const page: { data: { id: string; name: string }[]; nextCursor: string | null } = await api.get(
      `/v1/orgs?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    )
    const found = page.data.find((org) => org.name === name)
    if (found) return found
    cursor = page.nextCursor
  } while (cursor)
  return undefined
}

/** The context the steps share, with empty id maps; `steps` collects what they declare. */
export function newContext(api: Api, run: string, withTeammates: boolean, steps: Step[]): SeedContext {
  const counts: Record<string, number> = {}
  const day = dayOf(run)
  const ctx: SeedContext & { counts: Record<string, number> } = {
    run,
    api,
    withTeammates,
    as: (person) => ctx.clients.get(person) ?? api,
    ids: {
      org: '',
      slug: '',
      teams: new Map(),
      states: new Map(),
      labels: new Map(),
      cycles: new Map(),
      tasks: new Map(),
      taskKeys: new Map(),
      agents: new Map(),
      members: new Map(),
      projects: new Map(),
      milestones: new Map(),
      fields: new Map(),
      impactOptions: new Map(),
    },
    handle: '',
    scopes: [],
    notes: [],
    teammates: [],
    clients: new Map(),
    org: () => `/v1/orgs/${ctx.ids.org}`,
    day: (days) => new Date(day.getTime() + days * DAY).toISOString().slice(0, 10),
    anchor: anchorOf(run),
    step: (key, label, perform) => steps.push({ key, label, perform }),
    count: (what, n = 1) => {
      counts[what] = (counts[what] ?? 0) + n
    },
    counts,
  }
  return ctx
}

/** Runs the steps in order, each with its own Idempotency-Key. */
export async function runSteps(
  steps: Step[],
  run: string,
  startProgress: (total: number) => Progress,
): Promise<void> {
  const progress = startProgress(steps.length)
  for (const current of steps) {
    progress.tick(current.label)
    await current.perform(`workgraph-seed:${run}:${current.key}`)
  }
  progress.done()
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
): Promise<SeedSummary & { context: SeedContext }> {
  const steps: Step[] = []
  const ctx = newContext(api, options.run, Boolean(options.teammates), steps)
  workspaceSteps(ctx, options.workspaceName)
  if (options.teammates) {
    const { server, mailbox } = options.teammates
    peopleSteps(ctx, createTeammateSession(server, mailbox), mailbox, server.origin)
  }
  structureSteps(ctx)
  taskSteps(ctx)
  portfolioSteps(ctx)
  attentionSteps(ctx)
  if (options.largeTasks) largeSteps(ctx, options.largeTasks)
  await runSteps(steps, options.run, startProgress)
  await notificationsDelivered(ctx)
  const { counts } = ctx as SeedContext & { counts: Record<string, number> }
  return {
    orgId: ctx.ids.org,
    slug: ctx.ids.slug,
    counts,
    teammates: ctx.teammates.map(({ name, email, password }) => ({ name, email, password })),
    notes: ctx.notes,
    context: ctx,
  }
}

/**
 * Notifications are written just after the writes that cause them; waits (a few seconds at most)
 * until the approval request, and the mention when there is one, are in your inbox, so the first
 * look at it is not empty.
 */
async function notificationsDelivered(ctx: SeedContext): Promise<void> {
  // Without teammates you drove the agent yourself, and your own actions notify no one.
  if (!ctx.withTeammates) return
  const wanted = ['approvalRequested', 'mentioned']
  for (let attempt = 0; attempt < 50; attempt++) {
    const inbox = await ctx.api.get<{ data: { kind: string }[] }>(`${ctx.org()}/notifications?limit=50`)
    if (wanted.every((kind) => inbox.data.some((n) => n.kind === kind))) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

import { requireInitiative } from '../initiatives/service.ts'
import type { InitiativeId, MilestoneId, ProgramId, ProjectId, ProjectStatusId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { requireProgram } from '../programs/service.ts'
import { withStatus } from '../projects/milestones/milestones.ts'
import { requireProject } from '../projects/service.ts'
import type { StreamReader } from '../streams/readers.ts'
import type { StatusUpdate } from '../updates/schemas.ts'
import { fanOut, HUB_ITEMS_MAX } from './fanout.ts'
import { contextIn, orNull } from './orgs.ts'
import { relatedIn } from './portfolio.ts'
import type { HubRecordType, RelatedRecord } from './storage.ts'

/** How far back a digest may reach, in days. */
export const DIGEST_MAX_DAYS = 31
/** Per record: how many history entries, updates and completed tasks are read at most. */
const PER_RECORD_MAX = 200
const TASKS_SHOWN = 10
const EXCERPT_CHARS = 280

interface Change {
  from: string | null
  to: string | null
  at: string
}

export interface DigestRecord {
  orgId: string
  type: HubRecordType
  id: string
  name: string
  updates: Array<{ id: string; health: string; createdAt: string; excerpt: string }>
  healthChanges: Change[]
  statusChanges: Change[]
  milestonesCompleted: Array<{ id: string; name: string; targetDate: string | null }>
  tasksCompleted: {
    count: number
    items: Array<{ id: string; key: string; title: string; completedAt: string }>
  }
  /** The latest change in it: records are listed most recently changed first. */
  changedAt: string
}

const excerpt = (body: string) =>
  body.length > EXCERPT_CHARS ? `${body.slice(0, EXCERPT_CHARS - 1)}…` : body

/**
 * Health changes along the updates posted since `since`, oldest first, starting from the health the
 * record had before (its latest update before `since`, if any).
 */
function healthChanges(before: StatusUpdate | undefined, posted: StatusUpdate[]): Change[] {
  const changes: Change[] = []
  let health: string | null = before?.health ?? null
  for (const u of [...posted].reverse()) {
    if (u.health !== health) changes.push({ from: health, to: u.health, at: u.createdAt })
    health = u.health
  }
  return changes
}

/** The record's status changes since `since`, from its own history (oldest first). */
async function statusChanges(as: OperationContext, ref: RelatedRecord, since: string): Promise<Change[]> {
  const orgId = as.org!.id
  const page = {
    sort: 'createdAt' as const,
    direction: 'asc' as const,
    after: { value: since, id: '' },
    limit: PER_RECORD_MAX,
  }
  if (ref.type === 'project') {
    const entries = await as.store.projectHistory.list(orgId, ref.id as ProjectId, page)
    const names = new Map<string, string>()
    const nameOf = async (id: unknown) => {
      if (typeof id !== 'string') return null
      if (!names.has(id))
        names.set(id, (await as.store.projectStatuses.get(orgId, id as ProjectStatusId))?.name ?? id)
      return names.get(id)!
    }
    const out: Change[] = []
    for (const e of entries.slice(0, PER_RECORD_MAX)) {
      if (e.field !== 'statusId') continue
      out.push({ from: await nameOf(e.before), to: await nameOf(e.after), at: e.createdAt })
    }
    return out
  }
  if (ref.type === 'program') {
    const entries = await as.store.programs.history(orgId, ref.id as ProgramId, page, await as.scope())
    return entries
      .slice(0, PER_RECORD_MAX)
      .filter((e) => e.field === 'status')
      .map((e) => ({
        from: (e.before as string | null) ?? null,
        to: (e.after as string | null) ?? null,
        at: e.createdAt,
      }))
  }
  // Initiatives keep theirs newest first: read back to `since`.
  const entries = await as.store.initiatives.history(orgId, ref.id as InitiativeId, {
    sort: 'createdAt',
    direction: 'desc',
    after: null,
    limit: PER_RECORD_MAX,
  })
  return entries
    .slice(0, PER_RECORD_MAX)
    .filter((e) => e.createdAt >= since && e.action === 'updated')
    .flatMap((e) => {
      const status = (e.changes as Record<string, { before?: unknown; after?: unknown }>)?.status
      if (!status) return []
      return [
        {
          from: (status.before as string | null) ?? null,
          to: (status.after as string | null) ?? null,
          at: e.createdAt,
        },
      ]
    })
    .reverse()
}

/** A project's tasks completed since `since` (those the member may view), and the milestones they finished. */
async function projectWork(as: OperationContext, reader: StreamReader, projectId: ProjectId, since: string) {
  const project = await requireProject(as, projectId)
  const tasks = (
    await as.store.tasks.list(
      reader.orgId,
      { projectId, stateCategory: ['completed'], archived: false, updatedSince: since },
      { sort: 'updatedAt', direction: 'desc', after: null, limit: PER_RECORD_MAX },
      reader.scope,
    )
  )
    .slice(0, PER_RECORD_MAX)
    .filter((t) => t.completedAt !== null && t.completedAt >= since)
    .sort((a, b) => b.completedAt!.localeCompare(a.completedAt!))
  const finishing = new Set(tasks.map((t) => t.milestoneId).filter((m): m is MilestoneId => m !== null))
  const milestones =
    finishing.size === 0
      ? []
      : (await withStatus(as, project, await as.store.milestones.all(project.orgId, project.id))).filter(
          (m) => m.status === 'done' && finishing.has(m.id),
        )
  return {
    name: project.name,
    milestonesCompleted: milestones.map((m) => ({ id: m.id, name: m.name, targetDate: m.targetDate })),
    tasksCompleted: {
      count: tasks.length,
      items: tasks
        .slice(0, TASKS_SHOWN)
        .map((t) => ({ id: t.id, key: t.key, title: t.title, completedAt: t.completedAt! })),
    },
  }
}

async function nameOf(as: OperationContext, ref: RelatedRecord): Promise<string | null> {
  if (ref.type === 'program')
    return (await orNull(() => requireProgram(as, ref.id as ProgramId)))?.name ?? null
  if (ref.type === 'initiative')
    return (await orNull(() => requireInitiative(as, ref.id as InitiativeId)))?.name ?? null
  return (await orNull(() => requireProject(as, ref.id as ProjectId)))?.name ?? null
}

/** One workspace's digest: every related record with a change since `since`. */
async function digestIn(
  ctx: OperationContext,
  reader: StreamReader,
  since: string,
  types: readonly HubRecordType[] | undefined,
): Promise<DigestRecord[]> {
  const as = await contextIn(ctx, reader)
  if (!as) return []
  const out: DigestRecord[] = []
  for (const ref of await relatedIn(ctx, reader, types)) {
    const name = await nameOf(as, ref)
    if (name === null) continue
    const posted = await ctx.store.updates.feed(
      reader.orgId,
      { subjectId: ref.id, since },
      { sort: 'createdAt', direction: 'desc', after: null, limit: PER_RECORD_MAX },
      reader.scope,
    )
    const [before] =
      posted.length > 0
        ? await ctx.store.updates.feed(
            reader.orgId,
            { subjectId: ref.id, until: since },
            { sort: 'createdAt', direction: 'desc', after: null, limit: 1 },
            reader.scope,
          )
        : []
    const work =
      ref.type === 'project'
        ? await projectWork(as, reader, ref.id as ProjectId, since)
        : { milestonesCompleted: [], tasksCompleted: { count: 0, items: [] } }
    const record: Omit<DigestRecord, 'changedAt'> = {
      orgId: reader.orgId,
      type: ref.type,
      id: ref.id,
      name,
      updates: posted
        .slice(0, PER_RECORD_MAX)
        .map((u) => ({ id: u.id, health: u.health, createdAt: u.createdAt, excerpt: excerpt(u.body) })),
      healthChanges: healthChanges(before, posted.slice(0, PER_RECORD_MAX)),
      statusChanges: await statusChanges(as, ref, since),
      milestonesCompleted: work.milestonesCompleted,
      tasksCompleted: work.tasksCompleted,
    }
    const times = [
      ...record.updates.map((u) => u.createdAt),
      ...record.statusChanges.map((c) => c.at),
      ...record.tasksCompleted.items.map((t) => t.completedAt),
    ]
    if (times.length === 0) continue
    out.push({ ...record, changedAt: times.sort().at(-1)! })
  }
  return out
}

/**
 * What changed since `since` (at most {@link DIGEST_MAX_DAYS} days back) in every project, program
 * and initiative the caller leads, owns, belongs to or follows, grouped per record: updates posted,
 * health and status changes, milestones finished and tasks completed, over what they may view.
 */
export async function hubDigest(
  ctx: OperationContext,
  query: { since: string; types?: HubRecordType[]; orgId?: string },
) {
  const since = new Date(query.since).toISOString()
  if (Date.parse(ctx.now) - Date.parse(since) > DIGEST_MAX_DAYS * 86_400_000) {
    throw new ProblemError('rule_violated', `\`since\` may be at most ${DIGEST_MAX_DAYS} days ago.`, {
      errors: [{ pointer: '/query/since', message: `Within the last ${DIGEST_MAX_DAYS} days` }],
    })
  }
  const { results, partial } = await fanOut(ctx, (reader) => digestIn(ctx, reader, since, query.types), {
    only: query.orgId as never,
  })
  const data = results
    .flatMap((r) => r.value)
    .sort(
      (a, b) =>
        b.changedAt.localeCompare(a.changedAt) || a.orgId.localeCompare(b.orgId) || a.id.localeCompare(b.id),
    )
    .slice(0, HUB_ITEMS_MAX)
  return { since, data, partial }
}

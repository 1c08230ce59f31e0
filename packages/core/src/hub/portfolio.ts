import { requireInitiative } from '../initiatives/service.ts'
import type { InitiativeId, ProgramId, ProjectId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { canonicalJson } from '../kernel/pipeline/canonical.ts'
import { ProblemError } from '../kernel/problems.ts'
import { requireProgram } from '../programs/service.ts'
import { withStatus } from '../projects/milestones/milestones.ts'
import { projectProgress } from '../projects/progress.ts'
import { requireProject } from '../projects/service.ts'
import type { StreamReader } from '../streams/readers.ts'
import type { UpdateSubjectType } from '../updates/schemas.ts'
import { fanOut } from './fanout.ts'
import { contextIn, orNull } from './orgs.ts'
import { HUB_RECORD_TYPES, type HubRecordType, type HubRelation, type RelatedRecord } from './storage.ts'

/** How many records of each type one workspace contributes at most. */
export const PORTFOLIO_PER_TYPE_MAX = 200
export const PORTFOLIO_LIMIT_DEFAULT = 50
const EXCERPT_CHARS = 280

export interface PortfolioItem {
  orgId: string
  type: HubRecordType
  id: string
  name: string
  relations: HubRelation[]
  status: string
  health: 'onTrack' | 'atRisk' | 'offTrack' | null
  targetDate: string | null
  progress: number | null
  blocked: boolean
  nextMilestone: { id: string; name: string; targetDate: string | null } | null
  lastUpdate: { id: string; health: string; createdAt: string; excerpt: string } | null
}

/** The records of `types` the reader leads, belongs to or follows there (visible ones only). */
export function relatedIn(
  ctx: OperationContext,
  reader: StreamReader,
  types: readonly HubRecordType[] = HUB_RECORD_TYPES,
): Promise<RelatedRecord[]> {
  if (reader.actor.kind !== 'person') return Promise.resolve([])
  return ctx.store.hubReads.related(
    reader.orgId,
    reader.actor.id,
    types,
    reader.scope,
    PORTFOLIO_PER_TYPE_MAX,
  )
}

/** One record as the portfolio shows it, read through its own service as the member (null: not visible). */
async function itemOf(as: OperationContext, ref: RelatedRecord): Promise<PortfolioItem | null> {
  const base = { type: ref.type, id: ref.id, relations: ref.relations }
  const last = await latestUpdate(as, ref.type, ref.id)
  if (ref.type === 'project') {
    const project = await orNull(() => requireProject(as, ref.id as ProjectId))
    if (!project) return null
    const progress = await projectProgress(as, project.id)
    const milestones = await withStatus(as, project, await as.store.milestones.all(project.orgId, project.id))
    const next = milestones.find((m) => m.status === 'next') ?? null
    return {
      orgId: project.orgId,
      ...base,
      name: project.name,
      status: project.statusCategory,
      health: project.health,
      targetDate: project.targetDate,
      progress: progress.completedRatio,
      blocked: project.blocked,
      nextMilestone: next ? { id: next.id, name: next.name, targetDate: next.targetDate } : null,
      lastUpdate: last,
    }
  }
  if (ref.type === 'program') {
    const program = await orNull(() => requireProgram(as, ref.id as ProgramId))
    if (!program) return null
    return {
      orgId: program.orgId,
      ...base,
      name: program.name,
      status: program.status,
      health: program.health,
      targetDate: null,
      progress: null,
      blocked: false,
      nextMilestone: null,
      lastUpdate: last,
    }
  }
  const initiative = await orNull(() => requireInitiative(as, ref.id as InitiativeId))
  if (!initiative) return null
  return {
    orgId: initiative.orgId,
    ...base,
    name: initiative.name,
    status: initiative.status,
    health: initiative.health,
    targetDate: initiative.targetDate,
    progress: null,
    blocked: false,
    nextMilestone: null,
    lastUpdate: last,
  }
}

async function latestUpdate(as: OperationContext, type: UpdateSubjectType, id: string) {
  const [u] = await as.store.updates.list(
    as.org!.id,
    type,
    id,
    { archived: false },
    { sort: 'createdAt', direction: 'desc', after: null, limit: 1 },
  )
  if (!u) return null
  const excerpt = u.body.length > EXCERPT_CHARS ? `${u.body.slice(0, EXCERPT_CHARS - 1)}…` : u.body
  return { id: u.id, health: u.health, createdAt: u.createdAt, excerpt }
}

const SEVERITY = { offTrack: 0, atRisk: 1, onTrack: 2 } as const
const severity = (h: PortfolioItem['health']) => (h ? SEVERITY[h] : 3)

/** Worst health first, then the nearest target date (undated last), then workspace and id. */
export function portfolioOrder(a: PortfolioItem, b: PortfolioItem): number {
  return (
    severity(a.health) - severity(b.health) ||
    (a.targetDate ?? '9999-12-31').localeCompare(b.targetDate ?? '9999-12-31') ||
    a.orgId.localeCompare(b.orgId) ||
    a.id.localeCompare(b.id)
  )
}

/**
 * The projects, programs and initiatives the caller leads, owns, belongs to or follows in every
 * workspace, each read through its own service as the member there (so counted over what they may
 * view), sorted by health severity, then target date; at most `limit`, with `more`.
 */
export async function hubPortfolio(
  ctx: OperationContext,
  query: { types?: string; orgId?: string; cursor?: string; limit?: number },
) {
  const types = parseTypes(query.types)
  const limit = query.limit ?? PORTFOLIO_LIMIT_DEFAULT
  const scope = canonicalJson(['hub.portfolio', ctx.principal!.userId, types, query.orgId ?? null])
  const after = query.cursor ? keyOf(ctx.cursors.open(scope, query.cursor)) : null
  const { results, partial } = await fanOut(
    ctx,
    async (reader) => {
      const as = await contextIn(ctx, reader)
      if (!as) return []
      const items: PortfolioItem[] = []
      for (const ref of await relatedIn(ctx, reader, types)) {
        const item = await itemOf(as, ref)
        if (item) items.push(item)
      }
      return items
    },
    { only: query.orgId as never },
  )
  // Every workspace's records are read whole (bounded per type), so the page is cut in code after
  // the cursor's key: the sort is by values computed here (health, progress), not by a column.
  const all = results
    .flatMap((r) => r.value)
    .filter((item) => !after || portfolioOrder(item, after) > 0)
    .sort(portfolioOrder)
  const data = all.slice(0, limit)
  const last = data.at(-1)
  return {
    data,
    nextCursor:
      all.length > limit && last
        ? ctx.cursors.seal(scope, [last.health, last.targetDate, last.orgId, last.id])
        : null,
    partial,
  }
}

/** The sort key a cursor holds, as a comparable item. */
function keyOf(value: unknown): PortfolioItem {
  const ok =
    Array.isArray(value) &&
    value.length === 4 &&
    (value[0] === null || Object.hasOwn(SEVERITY, value[0] as string)) &&
    (value[1] === null || typeof value[1] === 'string') &&
    typeof value[2] === 'string' &&
    typeof value[3] === 'string'
  if (!ok) {
    const detail = 'The cursor does not belong to this read.'
    throw new ProblemError('invalid_cursor', detail, {
      errors: [{ pointer: '/query/cursor', message: detail }],
    })
  }
  const [health, targetDate, orgId, id] = value as [PortfolioItem['health'], string | null, string, string]
  return { health, targetDate, orgId, id } as PortfolioItem
}

/** `types` as a comma-separated subset of the record types; all when absent. */
export function parseTypes(raw: string | undefined): HubRecordType[] {
  if (raw === undefined) return [...HUB_RECORD_TYPES]
  const parts = raw.split(',').map((t) => t.trim())
  const wrong = parts.filter((t) => !(HUB_RECORD_TYPES as readonly string[]).includes(t))
  if (wrong.length > 0 || parts.length === 0) {
    throw new ProblemError('validation_failed', `Unknown type: ${wrong.join(', ')}.`, {
      errors: [{ pointer: '/query/types', message: `One or more of ${HUB_RECORD_TYPES.join(', ')}` }],
    })
  }
  return [...new Set(parts)] as HubRecordType[]
}

import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { nextDueAt, nextUpdateDue } from '../projects/cadence.ts'
import {
  type CadenceDefault,
  type CadenceParentType,
  readUpdateSettings,
  type UpdateSettings,
} from '../projects/update-settings.ts'
import type { UpdateDueItem } from './cadence-schemas.ts'
import type { DueCandidate } from './cadence-storage.ts'
import type { UpdateSubjectType } from './schemas.ts'

const DAY = 86_400_000
const KINDS: CadenceParentType[] = ['project', 'program', 'initiative']

export async function getUpdateSettings(ctx: OperationContext): Promise<UpdateSettings> {
  return readUpdateSettings(ctx)
}

/** Changes the org's defaults; each kind changes only the fields sent. */
export async function updateUpdateSettings(
  ctx: OperationContext,
  patch: Partial<Record<CadenceParentType, Partial<CadenceDefault>>>,
): Promise<UpdateSettings> {
  const orgId = currentOrg(ctx).id
  const current = await readUpdateSettings(ctx)
  const next: UpdateSettings = { ...current }
  const changes: Record<string, unknown> = {}
  for (const kind of KINDS) {
    const sent = patch[kind]
    if (!sent) continue
    const merged = { ...current[kind], ...sent }
    const changed = changesOf(current[kind], sent)
    if (Object.keys(changed).length === 0) continue
    next[kind] = merged
    changes[kind] = changed
    await ctx.store.updateSettings.put(orgId, kind, merged, ctx.now)
  }
  if (Object.keys(changes).length === 0) return current
  next.updatedAt = ctx.now
  ctx.emit({
    kind: 'update_settings.updated',
    resourceType: 'org',
    resourceId: orgId,
    teamId: null,
    data: { settings: next, changes },
  })
  return next
}

/** When a candidate's next update is due: its own project cadence, else the org default of its kind. */
function dueAt(c: DueCandidate, settings: UpdateSettings): string | null {
  const since = c.lastUpdateAt ?? c.createdAt
  if (c.cadence && c.cadence.updateCadence !== 'orgDefault') {
    // Candidates are open, so only the cadence decides.
    return nextUpdateDue(c.cadence.updateCadence, c.cadence.updateWeekday, since, 'started', false)
  }
  const d = settings[c.subjectType]
  return nextDueAt(d.everyWeeks, d.weekday, d.hour, since)
}

/**
 * The records the caller can view whose next status update is due or overdue, earliest due first.
 * Dueness is computed from the cadences over the open records of the org, then paged by
 * (`nextUpdateDueAt`, subject id).
 */
export async function listDue(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number; subjectType?: UpdateSubjectType; ownerId?: string },
): Promise<Page<UpdateDueItem>> {
  const orgId = currentOrg(ctx).id
  const ownerId = query.ownerId === 'me' ? ctx.actor!.id : query.ownerId
  const filter = {
    ...(query.subjectType ? { subjectType: query.subjectType } : {}),
    ...(ownerId ? { ownerId } : {}),
  }
  const page = await readPage(ctx, {
    scope: ['updates.due', orgId, filter],
    query,
    sort: 'nextUpdateDueAt',
    direction: 'asc',
    keyOf: (r: UpdateDueItem & { id: string }) => r.nextUpdateDueAt,
    fetch: async (request) => {
      const settings = await readUpdateSettings(ctx, orgId)
      const candidates = await ctx.store.updateDue.candidates(orgId, filter, await ctx.scope())
      const due: (UpdateDueItem & { id: string })[] = []
      for (const c of candidates) {
        const at = dueAt(c, settings)
        if (at === null || at > ctx.now) continue
        due.push({
          id: c.subjectId,
          subjectType: c.subjectType,
          subjectId: c.subjectId,
          name: c.name,
          ownerId: c.ownerId as UpdateDueItem['ownerId'],
          lastUpdateAt: c.lastUpdateAt,
          nextUpdateDueAt: at,
          overdue: Date.parse(ctx.now) - Date.parse(at) >= DAY,
        })
      }
      const key = (r: { nextUpdateDueAt: string; id: string }) => `${r.nextUpdateDueAt}|${r.id}`
      due.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
      const after = request.after ? `${request.after.value}|${request.after.id}` : null
      return due.filter((r) => after === null || key(r) > after).slice(0, request.limit + 1)
    },
  })
  return { ...page, data: page.data.map(({ id: _id, ...item }) => item) }
}

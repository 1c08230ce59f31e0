import { type FavoriteId, type IdBrand, isId, newId, type OrgId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import { type MoveTo, placeMoved } from '../../kernel/ordering.ts'
import { type KeysetPosition, PAGE_LIMIT_DEFAULT, type Page, toPage } from '../../kernel/pagination.ts'
import type { Actor } from '../../kernel/permissions.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { referenceNotFound } from '../../kernel/references.ts'
import { callerId } from '../profile/profile.ts'
import { FAVORITE_BRANDS, type Favorite, type FavoriteType } from '../schemas.ts'
import { FAVORITES_MAX, type FavoriteRecord } from '../storage.ts'

const BRANDS: Record<FavoriteType, IdBrand> = FAVORITE_BRANDS

const toFavorite = (r: FavoriteRecord): Favorite => ({
  id: r.id,
  record: { orgId: r.orgId, type: r.recordType, id: r.recordId },
  position: r.position,
  createdAt: r.createdAt,
})

/**
 * Whether the person may view a starred record now, asked of the permission engine as their actor
 * in the record's workspace. A membership that ended, a record deleted or moved out of reach: not
 * visible. One actor context per workspace for the whole request.
 */
function visibilityCheck(ctx: OperationContext) {
  const contexts = new Map<OrgId, Promise<OperationContext | null>>()
  const contextIn = async (orgId: OrgId): Promise<OperationContext | null> => {
    const org = await ctx.store.orgs.get(orgId)
    const member = org ? await ctx.store.members.findByUser(orgId, callerId(ctx)) : null
    if (!org || !member || member.status !== 'active') return null
    const actor: Actor = {
      id: member.id,
      kind: 'person',
      orgId,
      role: member.role,
      userId: member.userId,
      name: member.name,
    }
    return ctx.within(org, actor)
  }
  return async (orgId: OrgId, type: FavoriteType, id: string): Promise<boolean> => {
    let pending = contexts.get(orgId)
    if (!pending) {
      pending = contextIn(orgId)
      contexts.set(orgId, pending)
    }
    const inOrg = await pending
    if (!inOrg) return false
    try {
      await inOrg.require('view', { type, id })
      return true
    } catch (error) {
      if (error instanceof ProblemError && ['not_found', 'capability_required'].includes(error.code))
        return false
      throw error
    }
  }
}

/**
 * The person's favorites in order, leaving out those whose record they can no longer view. Pages
 * stay full: storage is read on past hidden ones until the page is filled or the list ends.
 */
export async function listFavorites(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Favorite>> {
  const userId = callerId(ctx)
  const scope = `me.favorites.list:${userId}`
  const limit = query.limit ?? PAGE_LIMIT_DEFAULT
  let after: KeysetPosition | null = query.cursor ? ctx.cursors.decode(scope, query.cursor) : null
  const visible = visibilityCheck(ctx)
  const found: FavoriteRecord[] = []
  for (;;) {
    const rows = await ctx.store.favorites.list(userId, { sort: 'position', direction: 'asc', after, limit })
    for (const row of rows.slice(0, limit)) {
      if (await visible(row.orgId, row.recordType, row.recordId)) found.push(row)
      if (found.length > limit) break
    }
    if (found.length > limit || rows.length <= limit) break
    const last = rows[limit - 1]!
    after = { value: last.position, id: last.id }
  }
  const page = toPage(found, limit, (last) =>
    ctx.cursors.encode(scope, { value: last.position, id: last.id }),
  )
  return { data: page.data.map(toFavorite), nextCursor: page.nextCursor }
}

export async function addFavorite(
  ctx: OperationContext,
  record: { orgId: OrgId; type: FavoriteType; id: string },
): Promise<Favorite> {
  const userId = callerId(ctx)
  // The schema admits an id of any brand a favorite takes; which one depends on `type`, a rule across
  // fields: an id of another brand names no record of that type.
  if (!isId(BRANDS[record.type], record.id)) {
    throw new ProblemError('reference_not_found', `body.record.id must be a ${BRANDS[record.type]}.`, {
      errors: [{ pointer: '/body/record/id', message: `Expected a ${BRANDS[record.type]}` }],
    })
  }
  // A workspace of which the person is not a member and a record they cannot view look alike.
  if (!(await visibilityCheck(ctx)(record.orgId, record.type, record.id))) {
    throw referenceNotFound(
      '/body/record',
      `No ${record.type} with this id that you can view.`,
      'Not a record you can view',
    )
  }
  const all = await ctx.store.favorites.all(userId)
  const existing = all.find(
    (f) => f.orgId === record.orgId && f.recordType === record.type && f.recordId === record.id,
  )
  if (existing) return toFavorite(existing)
  if (all.length >= FAVORITES_MAX)
    throw new ProblemError('conflict', `A person keeps at most ${FAVORITES_MAX} favorites; remove one first.`)
  const favorite = await ctx.store.favorites.insertOnce({
    id: newId('FavoriteId'),
    userId,
    orgId: record.orgId,
    recordType: record.type,
    recordId: record.id,
    position: await ctx.store.favorites.nextPosition(userId),
    createdAt: ctx.now,
  })
  return toFavorite(favorite)
}

/** One favorite; one whose record the person can no longer view is a 404, as `list` leaves it out. */
export async function getFavorite(ctx: OperationContext, id: FavoriteId): Promise<Favorite> {
  const found = await ctx.store.favorites.get(callerId(ctx), id)
  if (!found || !(await visibilityCheck(ctx)(found.orgId, found.recordType, found.recordId)))
    throw notFound('Favorite')
  return toFavorite(found)
}

export async function removeFavorite(ctx: OperationContext, id: FavoriteId): Promise<void> {
  if (!(await ctx.store.favorites.delete(callerId(ctx), id))) throw notFound('Favorite')
}

/**
 * Moves one of the person's favorites just before or after another one they can see. The order is
 * decided among the favorites they can see; those hidden from them now keep their places, and the
 * whole list is renumbered from 0. A move that changes nothing in what they see writes nothing.
 */
export async function moveFavorite(ctx: OperationContext, id: FavoriteId, to: MoveTo): Promise<Favorite> {
  const userId = callerId(ctx)
  const visible = visibilityCheck(ctx)
  const all = await ctx.store.favorites.all(userId)
  const shown: FavoriteRecord[] = []
  for (const f of all) if (await visible(f.orgId, f.recordType, f.recordId)) shown.push(f)
  if (!shown.some((f) => f.id === id)) throw notFound('Favorite')
  if (!placeMoved(shown, id, to, 'another of your favorites').moved)
    return toFavorite(shown.find((f) => f.id === id)!)
  const { order } = placeMoved(all, id, to, 'another of your favorites')
  // Only the favorites whose position changes are written.
  for (const [position, f] of order.entries())
    if (f.position !== position) await ctx.store.favorites.setPosition(userId, f.id, position)
  const position = order.findIndex((f) => f.id === id)
  return toFavorite({ ...order[position]!, position })
}

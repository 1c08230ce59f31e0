import type { OrgId } from '../kernel/ids.ts'
import type { CursorCodec } from '../kernel/pagination.ts'
import { encodeStreamCursor } from './cursor.ts'

/** A stream's positions: null in a workspace it has joined and read nothing of yet. */
export type LivePositions = ReadonlyMap<OrgId, number | null>

/**
 * The signed cursor of a stream's positions, from a bounded memo (reset when full): streams at the
 * same positions share one signed cursor, sealed once.
 */
export function createCursorMemo(codec: CursorCodec): (positions: LivePositions) => string {
  let sealed = new Map<string, string>()
  return (positions) => {
    const known = new Map<OrgId, number>()
    let key = ''
    for (const [orgId, at] of positions) {
      if (at === null) continue
      known.set(orgId, at)
      key += `${orgId}:${at};`
    }
    let cursor = sealed.get(key)
    if (cursor === undefined) {
      if (sealed.size > 10_000) sealed = new Map()
      cursor = encodeStreamCursor(codec, known)
      sealed.set(key, cursor)
    }
    return cursor
  }
}

/**
 * What decides a stream's cursors for a page of `orgId` besides the page itself: its positions in
 * its other workspaces, in cursor order. Streams of one group with the same key get the same items.
 */
export function positionsElsewhere(positions: LivePositions, orgId: OrgId): string {
  if (positions.size === 1) return ''
  let key = ''
  for (const [other, at] of positions) key += other === orgId ? '*;' : `${other}:${at};`
  return key
}

import type { Kysely } from 'kysely'
import { commentsPurge } from './comments/purge.ts'
import { connectorsPurge } from './connectors/purge.ts'
import { cyclesPurge } from './cycles/purge.ts'
import { documentsPurge } from './documents/purge.ts'
import { fieldsPurge } from './fields/purge.ts'
import { initiativesPurge } from './initiatives/purge.ts'
import { linksPurge } from './links/purge.ts'
import { programsPurge } from './programs/purge.ts'
import { projectsPurge } from './projects/purge.ts'
import type { GroupPurge, Purge } from './purge-kinds.ts'
import type { Database } from './schema.ts'
import { tasksPurge } from './tasks/purge.ts'
import { updatesPurge } from './updates/purge.ts'

/**
 * Every group's part of a delete, in core's layering order (lowest first); `fields` is not layered
 * there and comes last. A group that hangs rows on a kind of record adds its part in its own
 * `purge.ts` and one line here.
 */
const PURGES: readonly GroupPurge[] = [
  tasksPurge,
  cyclesPurge,
  projectsPurge,
  updatesPurge,
  linksPurge,
  initiativesPurge,
  documentsPurge,
  programsPurge,
  commentsPurge,
  connectorsPurge,
  fieldsPurge,
]

/**
 * The delete cascade over `db` (the request's transaction): for a kind of record, the groups that
 * hang rows on it run from the top of the layering down, then the group that owns the records
 * deletes them. A part may purge records of its own in turn (a project's milestones), which runs the
 * same way before it goes on.
 */
export function purgeOn(db: Kysely<Database>): Purge {
  const topDown = [...PURGES].reverse()
  const purge: Purge = async (orgId, kind, ids) => {
    if (ids.length === 0) return
    const owner = PURGES.find((p) => p.owns.includes(kind))
    for (const group of topDown) {
      if (group !== owner) await group.parts[kind]?.(db, orgId, ids, purge)
    }
    await owner?.parts[kind]?.(db, orgId, ids, purge)
  }
  return purge
}

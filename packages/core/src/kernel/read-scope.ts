import type { ActorId } from './ids.ts'

/**
 * How a read narrows what the actor sees, compiled into SQL by storage. `orgWide` actors see every
 * record; the others see records in `teamIds`: the teams where they, or a team they belong to, hold
 * a grant. The list comes from the grants the engine loads once per request, so the query carries it
 * as a literal the planner can estimate, and an empty list reads nothing.
 */
export interface ReadScope {
  orgWide: boolean
  actorId: ActorId
  teamIds: readonly string[]
}

/** For the engine's own look-ups (which container holds a record), never for answering a caller. */
export const UNSCOPED: ReadScope = {
  orgWide: true,
  actorId: 'mem_00000000000000000000000000' as ActorId,
  teamIds: [],
}

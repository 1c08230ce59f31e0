import type { ActorId } from './ids.ts'

/**
 * How a read narrows what the actor sees, compiled into SQL by storage. `orgWide` actors see every
 * record; the others see records in `teamIds` (the teams where they, or a team they belong to, hold
 * a grant) and the tasks, milestones and projects of `projectIds` (the projects where such a grant
 * is, directly or through a program or initiative holding the project). `programIds` and
 * `initiativeIds` are the programs and initiatives a grant reaches (on them, or on an initiative
 * above them), which the reader may view themselves. The lists come from the grants the engine loads once per request, so the query carries them
 * as literals the planner can estimate, and empty lists read nothing.
 */
export interface ReadScope {
  orgWide: boolean
  actorId: ActorId
  teamIds: readonly string[]
  projectIds: readonly string[]
  programIds: readonly string[]
  initiativeIds: readonly string[]
}

/** For the engine's own look-ups (which container holds a record), never for answering a caller. */
export const UNSCOPED: ReadScope = {
  orgWide: true,
  actorId: 'mem_00000000000000000000000000' as ActorId,
  teamIds: [],
  projectIds: [],
  programIds: [],
  initiativeIds: [],
}

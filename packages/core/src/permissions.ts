import { atLeast, type Capability, ROLE_BASE_CAPABILITY } from './capabilities.ts'
import type { Actor, CapabilityTarget } from './operation.ts'
import { ProblemError } from './problems.ts'
import type { Store } from './storage.ts'

/**
 * Decides what an Actor may do. Today the base capability of the actor's org role applies across
 * the org; grants on teams and other containers extend this function, not its callers.
 */
export async function capabilityOf(
  _store: Store,
  actor: Actor,
  _target: CapabilityTarget,
): Promise<Capability | null> {
  if (actor.status !== 'active') return null
  return ROLE_BASE_CAPABILITY[actor.role]
}

export async function requireCapability(
  store: Store,
  actor: Actor,
  capability: Capability,
  target: CapabilityTarget,
): Promise<void> {
  const held = await capabilityOf(store, actor, target)
  if (!atLeast(held, capability)) {
    throw new ProblemError(
      'capability_required',
      `This action needs the \`${capability}\` capability on this ${target.type}.`,
      {
        extensions: { capability, held },
      },
    )
  }
}

/** The capability ladder, lowest to highest: each rung includes the ones below it. */
export const CAPABILITIES = ['view', 'comment', 'contribute', 'assign', 'manage'] as const
export type Capability = (typeof CAPABILITIES)[number]

export function capabilityRank(capability: Capability): number {
  return CAPABILITIES.indexOf(capability)
}

export function atLeast(held: Capability | null, needed: Capability): boolean {
  return held !== null && capabilityRank(held) >= capabilityRank(needed)
}

export const ORG_ROLES = ['owner', 'admin', 'member', 'guest'] as const
export type OrgRole = (typeof ORG_ROLES)[number]

/** The base capability a role gives across its org, before any grant. Guests have none: they see what grants give them. */
export const ROLE_BASE_CAPABILITY: Record<OrgRole, Capability | null> = {
  owner: 'manage',
  admin: 'manage',
  member: 'assign',
  guest: null,
}

import type { Grant, GrantId, Member, MemberId, OrgId, UserId } from '@workgraph/core'
import type { OrgStanding } from '@workgraph/core/storage'
import { iso, isoOrNull } from '../normalize.ts'
import type { StandingRow } from './standing-rows.ts'

/**
 * Standing rows grouped by `key`, each group the standing it stands for (`orgOf` names a key's org):
 * what a standing holds is read from rows here and nowhere else.
 */
export function standingsFromRows(
  rows: Iterable<StandingRow>,
  orgOf: (key: string) => OrgId,
): Map<string, OrgStanding> {
  const out = new Map<string, OrgStanding>()
  for (const r of rows) {
    let s = out.get(r.key)
    if (!s) {
      s = { org: null, member: null, teamIds: [], grants: [] }
      out.set(r.key, s)
    }
    if (r.kind === 'org') s.org = toOrg(r)
    else if (r.kind === 'member') s.member = toMember(r, orgOf(r.key))
    else if (r.kind === 'team') s.teamIds.push(r.id)
    else s.grants.push(toGrant(r, orgOf(r.key)))
  }
  return out
}

function toOrg(r: StandingRow): NonNullable<OrgStanding['org']> {
  return {
    id: r.id as OrgId,
    name: r.a!,
    slug: r.b!,
    createdAt: iso(r.createdAt!),
    updatedAt: iso(r.updatedAt!),
    archivedAt: isoOrNull(r.archivedAt),
  }
}

function toMember(r: StandingRow, orgId: OrgId): Member {
  return {
    id: r.id as MemberId,
    orgId,
    userId: r.e as UserId,
    kind: 'person',
    name: r.a!,
    email: r.b!,
    role: r.c as Member['role'],
    status: r.d as Member['status'],
    createdAt: iso(r.createdAt!),
    updatedAt: iso(r.updatedAt!),
  }
}

function toGrant(r: StandingRow, orgId: OrgId): Grant {
  return {
    id: r.id as GrantId,
    orgId,
    subjectType: r.a as Grant['subjectType'],
    subjectId: r.b!,
    containerType: r.c as Grant['containerType'],
    containerId: r.d!,
    capability: r.e as Grant['capability'],
    createdAt: iso(r.createdAt!),
    updatedAt: iso(r.updatedAt!),
  }
}

import { currentOrg } from '../kernel/context.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import { requireTeam } from '../teams/service.ts'
import type { InvitationPolicy, OrgSettings } from './schemas.ts'

/** The workspace's settings, the defaults while no admin has changed them. */
export async function getOrgSettings(ctx: OperationContext): Promise<OrgSettings> {
  const orgId = currentOrg(ctx).id
  return (
    (await ctx.store.orgSettings.get(orgId)) ?? {
      orgId,
      defaultTeamId: null,
      invitationPolicy: 'anyone',
      updatedAt: null,
    }
  )
}

export async function updateOrgSettings(
  ctx: OperationContext,
  patch: { defaultTeamId?: string | null; invitationPolicy?: InvitationPolicy },
): Promise<OrgSettings> {
  const settings = await getOrgSettings(ctx)
  if (patch.defaultTeamId) {
    const team = await requireTeam(ctx, patch.defaultTeamId as TeamId).catch((error: unknown) => {
      if (error instanceof ProblemError && error.code === 'not_found') return null
      throw error
    })
    if (!team || team.archivedAt) {
      throw new ProblemError(
        'reference_not_found',
        'The default team must be an active team of the workspace.',
        {
          errors: [{ pointer: '/body/defaultTeamId', message: team ? 'Archived team' : 'No such team' }],
        },
      )
    }
  }
  if (patch.invitationPolicy === 'verified_domains' && settings.invitationPolicy !== 'verified_domains') {
    const verified = await ctx.store.domains.list(
      settings.orgId,
      { status: 'verified' },
      {
        sort: 'domain',
        direction: 'asc',
        after: null,
        limit: 1,
      },
    )
    if (verified.length === 0) {
      throw new ProblemError('conflict', 'Verify a domain first: with none, nobody could be invited.', {
        errors: [{ pointer: '/body/invitationPolicy', message: 'No verified domain' }],
      })
    }
  }
  const changed = Object.fromEntries(
    Object.entries(patch).filter(([k, v]) => v !== undefined && settings[k as keyof OrgSettings] !== v),
  )
  if (Object.keys(changed).length === 0) return settings
  const next: OrgSettings = { ...settings, ...changed, updatedAt: ctx.now }
  await ctx.store.orgSettings.put(next)
  ctx.emit({
    kind: 'org_settings.updated',
    resourceType: 'org_settings',
    resourceId: next.orgId,
    data: { settings: next, changes: changesOf(settings, changed) },
  })
  return next
}

/**
 * Under the `verified_domains` policy, refuses an invitation to an address outside the workspace's
 * verified domains. `invitations.create` calls it before writing anything.
 */
export async function checkInvitationAllowed(ctx: OperationContext, email: string): Promise<void> {
  const settings = await getOrgSettings(ctx)
  if (settings.invitationPolicy !== 'verified_domains') return
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase()
  if (await ctx.store.domains.isVerified(settings.orgId, domain)) return
  throw new ProblemError(
    'domain_not_allowed',
    `This workspace invites only addresses on its verified domains; ${domain} is not one of them.`,
    { errors: [{ pointer: '/body/email', message: 'Domain not verified' }] },
  )
}

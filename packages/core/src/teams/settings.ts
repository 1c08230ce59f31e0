import { atLeast } from '../kernel/capabilities.ts'
import { changesOf } from '../kernel/history-entry.ts'
import type { MemberId, OrgId, StateId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { type Container, capabilityIn } from '../kernel/permissions.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Store } from '../kernel/storage.ts'
import type { Team, WorkflowState } from './schemas.ts'
import { createState, requireTeam } from './service.ts'
import {
  DEFAULT_TEAM_SETTINGS,
  ESTIMATE_VALUES,
  type TeamSettings,
  type TeamSettingsRecord,
  type TriageSettings,
} from './settings-schemas.ts'
import './settings-storage.ts'

/** The team's settings record, or the defaults while it has none. */
export async function teamSettingsOf(
  store: Store,
  orgId: OrgId,
  teamId: TeamId,
): Promise<TeamSettingsRecord> {
  return (await store.teamSettings.get(orgId, teamId)) ?? { teamId, ...DEFAULT_TEAM_SETTINGS }
}

const teamPart = (r: TeamSettingsRecord): TeamSettings => ({
  teamId: r.teamId,
  estimateScale: r.estimateScale,
  autoCloseDays: r.autoCloseDays,
  autoArchiveDays: r.autoArchiveDays,
  triageEnabled: r.triageEnabled,
  defaultStateId: r.defaultStateId,
  updatedAt: r.updatedAt,
})

const triagePart = (r: TeamSettingsRecord): TriageSettings => ({
  teamId: r.teamId,
  responsibility: r.responsibility,
  action: r.action,
  memberIds: r.memberIds,
  updatedAt: r.updatedAt,
})

export async function getTeamSettings(ctx: OperationContext, teamId: TeamId): Promise<TeamSettings> {
  const team = await requireTeam(ctx, teamId)
  return teamPart(await teamSettingsOf(ctx.store, team.orgId, team.id))
}

export async function getTriageSettings(ctx: OperationContext, teamId: TeamId): Promise<TriageSettings> {
  const team = await requireTeam(ctx, teamId)
  return triagePart(await teamSettingsOf(ctx.store, team.orgId, team.id))
}

/** Estimate scale, periods, triage on/off and the default state; turning triage on adds a `Triage` state when the team has none. */
export async function updateTeamSettings(
  ctx: OperationContext,
  teamId: TeamId,
  patch: Partial<Omit<TeamSettings, 'teamId' | 'updatedAt'>>,
): Promise<TeamSettings> {
  const team = await requireTeam(ctx, teamId)
  if (patch.defaultStateId) await defaultCandidate(ctx, team, patch.defaultStateId)
  const next = await writeSettings(ctx, team, patch, 'team_settings.updated', teamPart)
  if (patch.triageEnabled && !(await triageStateOf(ctx, team.orgId, team.id)))
    await createState(ctx, team.id, { name: 'Triage', category: 'triage', color: '#fc7840', position: 0 })
  return next
}

/** Who handles triage and how; `fixed` needs at least one active member, `none` takes none. */
export async function updateTriageSettings(
  ctx: OperationContext,
  teamId: TeamId,
  patch: Partial<Omit<TriageSettings, 'teamId' | 'updatedAt'>>,
): Promise<TriageSettings> {
  const team = await requireTeam(ctx, teamId)
  const current = await teamSettingsOf(ctx.store, team.orgId, team.id)
  const responsibility = patch.responsibility ?? current.responsibility
  const memberIds = patch.memberIds ?? (patch.responsibility === 'none' ? [] : current.memberIds)
  if (responsibility === 'none' && memberIds.length > 0) {
    throw new ProblemError('rule_violated', 'With `none`, nobody is named to handle triage.', {
      errors: [{ pointer: '/body/memberIds', message: 'Must be empty with responsibility `none`' }],
    })
  }
  if (responsibility === 'fixed' && memberIds.length === 0) {
    throw new ProblemError('rule_violated', 'With `fixed`, name at least one member to handle triage.', {
      errors: [{ pointer: '/body/memberIds', message: 'At least one member with responsibility `fixed`' }],
    })
  }
  for (const [i, id] of memberIds.entries()) {
    const member = await ctx.store.members.get(team.orgId, id as MemberId)
    if (!member || member.status !== 'active') {
      throw new ProblemError(
        'reference_not_found',
        'Triage is handled by active members of this workspace.',
        {
          errors: [{ pointer: `/body/memberIds/${i}`, message: 'Not an active member of this workspace' }],
        },
      )
    }
  }
  return writeSettings(ctx, team, { ...patch, memberIds }, 'triage_settings.updated', triagePart)
}

async function writeSettings<T extends { updatedAt: string | null }>(
  ctx: OperationContext,
  team: Team,
  patch: Partial<TeamSettingsRecord>,
  kind: string,
  part: (r: TeamSettingsRecord) => T,
): Promise<T> {
  const current = await teamSettingsOf(ctx.store, team.orgId, team.id)
  const changed = Object.fromEntries(
    Object.entries(patch).filter(
      ([k, v]) =>
        v !== undefined && JSON.stringify(current[k as keyof TeamSettingsRecord]) !== JSON.stringify(v),
    ),
  ) as Partial<TeamSettingsRecord>
  if (Object.keys(changed).length === 0) return part(current)
  const next = { ...current, ...changed, updatedAt: ctx.now }
  await ctx.store.teamSettings.put(team.orgId, next)
  const settings = part(next)
  ctx.emit({
    kind,
    resourceType: 'team',
    resourceId: team.id,
    teamId: team.id,
    data: { settings, changes: changesOf(current, changed) },
  })
  return settings
}

async function defaultCandidate(ctx: OperationContext, team: Team, stateId: StateId): Promise<void> {
  const state = await ctx.store.states.get(team.orgId, stateId)
  if (!state || state.teamId !== team.id || state.archivedAt || state.category === 'triage') {
    throw new ProblemError(
      'reference_not_found',
      'The default state is an active, non-triage state of the team.',
      {
        errors: [{ pointer: '/body/defaultStateId', message: 'Not an active non-triage state of the team' }],
      },
    )
  }
}

/** The team's first active triage state, if it has one. */
export async function triageStateOf(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
): Promise<WorkflowState | null> {
  const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
  return states.find((s) => s.category === 'triage') ?? null
}

/**
 * Where a task created without a state goes: triage, when the team has it on and the caller holds
 * less than `assign` on the team (guests, agents and outside requesters); otherwise null (the default
 * state). `states`: the team's active states in board order, when the caller has read them.
 */
export async function intakeState(
  ctx: OperationContext,
  team: Team,
  read?: TeamSettingsRecord,
  states?: readonly WorkflowState[],
): Promise<WorkflowState | null> {
  const settings = read ?? (await teamSettingsOf(ctx.store, team.orgId, team.id))
  if (!settings.triageEnabled) return null
  // The team was just read, so its containers are known: the org and the team itself.
  const containers: Container[] | null = states
    ? [
        { type: 'org', id: team.orgId },
        { type: 'team', id: team.id },
      ]
    : await ctx.containersOf({ type: 'team', id: team.id })
  if (containers && atLeast(capabilityIn(await ctx.access(), containers), 'assign')) return null
  if (states) return states.find((s) => s.category === 'triage') ?? null
  return triageStateOf(ctx, team.orgId, team.id)
}

/** Who a new triage item of the team is assigned to: the first triage handler, when they are to be assigned and active. */
export async function triageAssignee(
  ctx: OperationContext,
  team: Team,
  read?: TeamSettingsRecord,
): Promise<MemberId | null> {
  const settings = read ?? (await teamSettingsOf(ctx.store, team.orgId, team.id))
  if (settings.responsibility !== 'fixed' || settings.action !== 'assign') return null
  for (const id of settings.memberIds) {
    const member = await ctx.store.members.get(team.orgId, id as MemberId)
    if (member?.status === 'active') return member.id as MemberId
  }
  return null
}

/** Refuses an estimate the team's scale does not allow, pointing at `pointer`. */
export async function checkEstimate(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  estimate: number,
  pointer: string,
  read?: TeamSettingsRecord,
): Promise<void> {
  const { estimateScale } = read ?? (await teamSettingsOf(ctx.store, orgId, teamId))
  if (estimateScale === 'free') return
  const allowed = ESTIMATE_VALUES[estimateScale]
  if (allowed.includes(estimate)) return
  throw new ProblemError('rule_violated', `The team estimates on the \`${estimateScale}\` scale.`, {
    errors: [
      {
        pointer,
        message: allowed.length ? `One of ${allowed.join(', ')}` : 'The team does not use estimates',
      },
    ],
  })
}

import type { LabelId, MemberId, OrgId, StateId, TaskId, TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { createLabel } from '../labels/service.ts'
import type { Member } from '../orgs/schemas.ts'
import { createTask } from '../tasks/create.ts'
import { PRIORITIES, type Priority } from '../tasks/schemas.ts'
import { setTaskArchived } from '../tasks/service.ts'
import type { Team } from '../teams/schemas.ts'
import { createState, createTeam } from '../teams/service.ts'
import type { CsvTaskRow } from './csv.ts'
import { EXPORT_FORMAT } from './export-format.ts'
import { RowError } from './row-error.ts'

/** What became of one row: a record made, or one found (imported before, or matched by name). */
export type RowOutcome = 'created' | 'skipped'

/** What became of one row of any format: created, updated (imported before, changed since) or found, with notes. */
export interface RowResult {
  outcome: RowOutcome | 'updated'
  /** Things the row could not carry over as it was (an unknown person, a missing state): kept as row notes. */
  notes: string[]
}

/** Lookups shared by the rows of one step: the workspace's members by email, its teams by key. */
export function createResolver(ctx: OperationContext, orgId: OrgId) {
  let byEmail: Map<string, Member> | undefined
  const members = async () => {
    if (!byEmail) {
      byEmail = new Map()
      let after: { value: string; id: string } | null = null
      for (;;) {
        const page: Member[] = await ctx.store.members.list(
          orgId,
          { status: 'active' },
          { sort: 'id', direction: 'asc', after, limit: 500 },
        )
        for (const m of page.slice(0, 500)) byEmail.set(m.email.toLowerCase(), m)
        if (page.length <= 500) break
        after = { value: page[499]!.id, id: page[499]!.id }
      }
    }
    return byEmail
  }
  return {
    /** An active team with this key (keys are unique in an org). */
    async team(key: string): Promise<Team | null> {
      let after: { value: string; id: string } | null = null
      for (;;) {
        const page: Team[] = await ctx.store.teams.list(
          orgId,
          { archived: false },
          { sort: 'id', direction: 'asc', after, limit: 500 },
          UNSCOPED,
        )
        const found = page.slice(0, 500).find((t) => t.key === key)
        if (found) return found
        if (page.length <= 500) return null
        after = { value: page[499]!.id, id: page[499]!.id }
      }
    },
    async member(email: string): Promise<Member | null> {
      return (await members()).get(email.toLowerCase()) ?? null
    },
    /** An active member by email, or, for exports that carry no email, by name (only when one member has it). */
    async person(who: string): Promise<Member | null> {
      const all = await members()
      if (who.includes('@')) return all.get(who.toLowerCase()) ?? null
      const named = [...all.values()].filter((m) => m.name.toLowerCase() === who.toLowerCase())
      return named.length === 1 ? named[0]! : null
    },
  }
}
export type Resolver = ReturnType<typeof createResolver>

const DATE = /^\d{4}-\d{2}-\d{2}$/

async function mapped(ctx: OperationContext, orgId: OrgId, sourceId: unknown): Promise<string | null> {
  if (typeof sourceId !== 'string') return null
  return (await ctx.store.imports.mapping(orgId, `src:${sourceId}`))?.id ?? null
}

const str = (v: unknown, field: string): string => {
  if (typeof v !== 'string' || v === '') throw new RowError(`\`${field}\` must be a non-empty string.`, field)
  return v
}

/**
 * Replays one line of a workgraph export. Members are matched by email (people are invited, not
 * imported); teams by key and states, labels by name are reused when they exist; tasks are created
 * with every reference translated through the mappings of earlier lines.
 */
export async function applyExportLine(
  ctx: OperationContext,
  orgId: OrgId,
  record: Record<string, unknown>,
  resolver: Resolver,
): Promise<RowOutcome> {
  const type = record.type
  if (type === 'workspace') {
    if (record.format !== EXPORT_FORMAT)
      throw new RowError(`Unknown export format \`${String(record.format)}\`.`, 'format')
    return 'skipped'
  }
  const sourceKey = `src:${str(record.id, 'id')}`
  if (await ctx.store.imports.mapping(orgId, sourceKey)) return 'skipped'
  const remember = (t: string, id: string) => ctx.store.imports.map(orgId, sourceKey, { type: t, id })
  switch (type) {
    case 'member': {
      const member = await resolver.member(str(record.email, 'email'))
      if (!member)
        throw new RowError(
          `No active member has the email ${String(record.email)}; their tasks come in unassigned.`,
          'email',
        )
      await remember('member', member.id)
      return 'skipped'
    }
    case 'team': {
      const key = str(record.key, 'key')
      const found = await resolver.team(key)
      if (found) {
        await remember('team', found.id)
        return 'skipped'
      }
      const team = await createTeam(ctx, {
        name: str(record.name, 'name'),
        key,
        description: (record.description as string | null) ?? null,
      })
      await remember('team', team.id)
      return 'created'
    }
    case 'workflow_state': {
      const teamId = (await mapped(ctx, orgId, record.teamId)) as TeamId | null
      if (!teamId) throw new RowError('Its team was not imported.', 'teamId')
      const name = str(record.name, 'name')
      const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
      const found = states.find((s) => s.name.toLowerCase() === name.toLowerCase())
      if (found) {
        await remember('workflow_state', found.id)
        return 'skipped'
      }
      if (record.archivedAt)
        throw new RowError('An archived state without a match is not imported.', 'archivedAt')
      const state = await createState(ctx, teamId, {
        name,
        category: record.category as never,
        ...(typeof record.color === 'string' ? { color: record.color } : {}),
        description: (record.description as string | null) ?? null,
      })
      await remember('workflow_state', state.id)
      return 'created'
    }
    case 'label': {
      const teamId = record.teamId ? ((await mapped(ctx, orgId, record.teamId)) as TeamId | null) : null
      if (record.teamId && !teamId) throw new RowError('Its team was not imported.', 'teamId')
      const name = str(record.name, 'name')
      const found = await ctx.store.labels.findActiveByName(orgId, teamId, name)
      if (found) {
        await remember('label', found.id)
        return 'skipped'
      }
      if (record.archivedAt)
        throw new RowError('An archived label without a match is not imported.', 'archivedAt')
      const parentId = (await mapped(ctx, orgId, record.parentId)) as LabelId | null
      const label = await createLabel(ctx, {
        name,
        teamId,
        isGroup: record.isGroup === true,
        ...(parentId ? { parentId } : {}),
        ...(typeof record.color === 'string' ? { color: record.color } : {}),
        description: (record.description as string | null) ?? null,
      })
      await remember('label', label.id)
      return 'created'
    }
    case 'task': {
      const teamId = (await mapped(ctx, orgId, record.teamId)) as TeamId | null
      if (!teamId) throw new RowError('Its team was not imported.', 'teamId')
      const stateId = (await mapped(ctx, orgId, record.stateId)) as StateId | null
      const labelIds: LabelId[] = []
      for (const id of Array.isArray(record.labelIds) ? record.labelIds : []) {
        const label = await mapped(ctx, orgId, id)
        if (label) labelIds.push(label as LabelId)
      }
      const task = await createTask(ctx, {
        teamId,
        title: str(record.title, 'title'),
        description: (record.description as string | null) ?? null,
        ...(stateId ? { stateId } : {}),
        assigneeId: (await mapped(ctx, orgId, record.assigneeId)) as MemberId | null,
        priority: (record.priority as Priority) ?? 'none',
        estimate: (record.estimate as number | null) ?? null,
        dueDate: (record.dueDate as string | null) ?? null,
        startDate: (record.startDate as string | null) ?? null,
        parentId: (await mapped(ctx, orgId, record.parentId)) as TaskId | null,
        labelIds,
      })
      if (record.archivedAt) await setTaskArchived(ctx, task.id, true)
      await remember('task', task.id)
      return 'created'
    }
    default:
      throw new RowError(`Unknown record type \`${String(type)}\`.`, 'type')
  }
}

/**
 * Creates the task of one CSV row in `teamId`: the state by name (else the team's default), the
 * assignee by email, labels by name (a missing one is created as a team label), checked first so
 * a bad cell refuses the row before anything is written.
 */
export async function applyCsvRow(
  ctx: OperationContext,
  orgId: OrgId,
  teamId: TeamId,
  row: CsvTaskRow,
  sourceKey: string,
  resolver: Resolver,
): Promise<RowOutcome> {
  if (await ctx.store.imports.mapping(orgId, sourceKey)) return 'skipped'
  if (!row.title) throw new RowError('The title is empty.', 'title')
  if (row.title.length > 500) throw new RowError('The title is longer than 500 characters.', 'title')
  let stateId: StateId | undefined
  if (row.state) {
    const states = await ctx.store.states.listForTeam(orgId, teamId, { includeArchived: false })
    const state = states.find((s) => s.name.toLowerCase() === row.state!.toLowerCase())
    if (!state) throw new RowError(`The team has no state named \`${row.state}\`.`, 'state')
    stateId = state.id
  }
  let assigneeId: MemberId | null = null
  if (row.assignee) {
    const member = await resolver.member(row.assignee)
    if (!member) throw new RowError(`No active member has the email ${row.assignee}.`, 'assignee')
    assigneeId = member.id
  }
  const priority = (row.priority?.toLowerCase() ?? 'none') as Priority
  if (!PRIORITIES.includes(priority))
    throw new RowError(`Priority must be one of ${PRIORITIES.join(', ')}.`, 'priority')
  if (row.dueDate && (!DATE.test(row.dueDate) || Number.isNaN(Date.parse(row.dueDate))))
    throw new RowError('The due date must be a date, `YYYY-MM-DD`.', 'dueDate')
  const estimate = row.estimate === undefined ? null : Number(row.estimate)
  if (estimate !== null && (!Number.isFinite(estimate) || estimate < 0 || estimate > 1000))
    throw new RowError('The estimate must be a number from 0 to 1000.', 'estimate')
  const labelIds: LabelId[] = []
  for (const name of (row.labels ?? '')
    .split(/[,;]/)
    .map((n) => n.trim())
    .filter(Boolean)) {
    const found =
      (await ctx.store.labels.findActiveByName(orgId, teamId, name)) ??
      (await ctx.store.labels.findActiveByName(orgId, null, name)) ??
      (await createLabel(ctx, { name, teamId }))
    if (found.isGroup) throw new RowError(`\`${name}\` is a label group, not a label.`, 'labels')
    if (!labelIds.includes(found.id)) labelIds.push(found.id)
  }
  const task = await createTask(ctx, {
    teamId,
    title: row.title,
    description: row.description ?? null,
    ...(stateId ? { stateId } : {}),
    assigneeId,
    priority,
    estimate,
    dueDate: row.dueDate ?? null,
    labelIds,
  })
  await ctx.store.imports.map(orgId, sourceKey, { type: 'task', id: task.id })
  return 'created'
}

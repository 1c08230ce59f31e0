import { currentOrg } from '../kernel/context.ts'
import { changesOf, changesOfFields } from '../kernel/history-entry.ts'
import { type LabelId, type MemberId, newId, type ProgramId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { referenceNotFound } from '../kernel/references.ts'
import { autoFollow } from '../projects/followers.ts'
import { DEFAULT_PROJECT_COLOR } from '../projects/service.ts'
import { archivedFilter } from '../teams/service.ts'
import { recordProgramHistory } from './history.ts'
import { PROGRAM_HISTORY_FIELDS, type Program, type ProgramStatus } from './schemas.ts'
import type { ProgramFilter, ProgramRecord } from './storage.ts'

export interface ProgramFields {
  name?: string
  description?: string | null
  icon?: string | null
  color?: string
  ownerId?: MemberId | null
  status?: ProgramStatus
}

/** Which status may follow which (§4.4 of the study): a retired program reopens as active only. */
const NEXT_STATUSES: Record<ProgramStatus, readonly ProgramStatus[]> = {
  active: ['paused', 'retired'],
  paused: ['active', 'retired'],
  retired: ['active'],
}

/**
 * A program the caller may view: members see every program of the org; guests those a grant reaches
 * (on it, an initiative above it, or one of its teams) or holding a project they can view. Anything
 * else, or a program of another org, is a 404.
 */
export async function requireProgram(ctx: OperationContext, programId: ProgramId): Promise<Program> {
  const program = await ctx.store.programs.get(currentOrg(ctx).id, programId, await ctx.scope())
  if (!program) throw notFound('Program')
  return program
}

export async function listPrograms(
  ctx: OperationContext,
  query: {
    cursor?: string
    limit?: number
    status?: ProgramStatus
    ownerId?: string
    teamId?: TeamId
    labelId?: LabelId
    health?: 'onTrack' | 'atRisk' | 'offTrack' | 'none'
    archived?: 'exclude' | 'only' | 'include'
  },
): Promise<Page<Program>> {
  const orgId = currentOrg(ctx).id
  const filter: ProgramFilter = { archived: archivedFilter(query.archived) }
  if (query.status) filter.status = query.status
  if (query.ownerId) filter.ownerId = query.ownerId === 'none' ? null : query.ownerId
  if (query.teamId) filter.teamId = query.teamId
  if (query.labelId) filter.labelId = query.labelId
  if (query.health) filter.health = query.health === 'none' ? null : query.health
  return readPage(ctx, {
    scope: ['programs.list', orgId, filter],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (p: Program) => p.createdAt,
    fetch: async (page) => ctx.store.programs.list(orgId, filter, page, await ctx.scope()),
  })
}

export async function createProgram(
  ctx: OperationContext,
  input: Omit<ProgramFields, 'status'> & { name: string },
): Promise<Program> {
  const orgId = currentOrg(ctx).id
  if (input.ownerId) await activeMember(ctx, input.ownerId, '/body/ownerId')
  const record: ProgramRecord = {
    id: newId('ProgramId'),
    orgId,
    name: input.name,
    description: input.description ?? null,
    icon: input.icon ?? null,
    color: input.color ?? DEFAULT_PROJECT_COLOR,
    ownerId: input.ownerId ?? null,
    status: 'active',
    retiredAt: null,
    creatorId: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    archivedAt: null,
  }
  await ctx.store.programs.insert(record)
  // The creator and the owner follow the program: they hear of its status updates.
  await autoFollow(ctx, 'program', record.id, ctx.actor!.id)
  if (record.ownerId) await autoFollow(ctx, 'program', record.id, record.ownerId)
  await recordProgramHistory(ctx, record.id, [
    { field: 'created', before: null, after: { name: record.name } },
  ])
  const program = await requireProgram(ctx, record.id)
  emitProgram(ctx, 'program.created', program, { program })
  return program
}

export async function updateProgram(
  ctx: OperationContext,
  programId: ProgramId,
  fields: ProgramFields,
): Promise<Program> {
  const program = await requireProgram(ctx, programId)
  const changed = Object.fromEntries(
    Object.entries(fields).filter(([k, v]) => v !== undefined && program[k as keyof Program] !== v),
  ) as ProgramFields & { retiredAt?: string | null }
  if (Object.keys(changed).length === 0) return program
  if (changed.ownerId) await activeMember(ctx, changed.ownerId, '/body/ownerId')
  if (changed.status) {
    if (!NEXT_STATUSES[program.status].includes(changed.status)) {
      throw new ProblemError(
        'conflict',
        `A ${program.status} program cannot become ${changed.status}; reopen it as active first.`,
        {
          errors: [
            { pointer: '/body/status', message: `Allowed: ${NEXT_STATUSES[program.status].join(', ')}` },
          ],
        },
      )
    }
    const retiredAt = changed.status === 'retired' ? ctx.now : null
    if (retiredAt !== program.retiredAt) changed.retiredAt = retiredAt
  }
  await ctx.store.programs.update(program.orgId, program.id, { ...changed, updatedAt: ctx.now })
  const changes = changesOf(program, changed)
  await recordProgramHistory(ctx, program.id, changesOfFields(PROGRAM_HISTORY_FIELDS, program, changed))
  const next = await requireProgram(ctx, program.id)
  emitProgram(ctx, 'program.updated', next, { program: next, changes })
  return next
}

export async function setProgramArchived(
  ctx: OperationContext,
  programId: ProgramId,
  archived: boolean,
): Promise<Program> {
  const program = await requireProgram(ctx, programId)
  if (Boolean(program.archivedAt) === archived) return program
  await ctx.store.programs.update(program.orgId, program.id, {
    archivedAt: archived ? ctx.now : null,
    updatedAt: ctx.now,
  })
  await recordProgramHistory(ctx, program.id, [
    { field: 'archivedAt', before: program.archivedAt, after: archived ? ctx.now : null },
  ])
  const next = await requireProgram(ctx, program.id)
  emitProgram(ctx, archived ? 'program.archived' : 'program.restored', next, { program: next })
  return next
}

/** Deletes the program with its links, members, teams and updates; its projects stay as they are. */
export async function deleteProgram(ctx: OperationContext, programId: ProgramId): Promise<void> {
  const program = await requireProgram(ctx, programId)
  await ctx.store.programs.delete(program.orgId, program.id)
  // Grants on the program go with it: its projects keep only their own holders.
  await ctx.store.access.deleteGrantsOf(program.orgId, program.id)
  emitProgram(ctx, 'program.deleted', program, { id: program.id, name: program.name })
}

/** A program that takes changes to what it holds: not archived. */
export async function writableProgram(ctx: OperationContext, programId: ProgramId): Promise<Program> {
  const program = await requireProgram(ctx, programId)
  if (program.archivedAt) throw new ProblemError('archived', 'The program is archived; restore it first.')
  return program
}

/**
 * Program events are org-level (no team): readers with org-wide view see every program. Events that
 * name a project are filed under that project's team instead (see links.ts).
 */
export function emitProgram(
  ctx: OperationContext,
  kind: string,
  program: Pick<Program, 'id'>,
  data: Record<string, unknown>,
  teamId: TeamId | null = null,
): void {
  ctx.emit({ kind, resourceType: 'program', resourceId: program.id, teamId, data })
}

export async function activeMember(
  ctx: OperationContext,
  memberId: MemberId,
  pointer: string,
): Promise<void> {
  const member = await ctx.store.members.get(currentOrg(ctx).id, memberId)
  if (!member || member.status !== 'active') {
    throw referenceNotFound(
      pointer,
      'Not an active member of this workspace.',
      'Not an active member of this workspace',
    )
  }
}

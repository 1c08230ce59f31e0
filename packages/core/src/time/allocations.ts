import { calendarDate } from '../kernel/calendar.ts'
import { currentOrg } from '../kernel/context.ts'
import { type AllocationId, type MemberId, newId, type ProjectId, type TeamId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { UNSCOPED } from '../kernel/read-scope.ts'
import { activeMember } from '../programs/service.ts'
import { requireProject } from '../projects/service.ts'
import type { Allocation, AllocationUnit } from './schemas.ts'
import type { AllocationFilter, AllocationRecord } from './storage.ts'

interface AllocationFields {
  startDate?: string
  endDate?: string
  unit?: AllocationUnit
  amount?: number
  note?: string | null
}

/** Dates in order and an amount its unit allows. */
function checkFields(a: Pick<AllocationRecord, 'startDate' | 'endDate' | 'unit' | 'amount'>) {
  calendarDate(a.startDate, '/body/startDate')
  calendarDate(a.endDate, '/body/endDate')
  if (a.startDate > a.endDate) {
    throw new ProblemError('rule_violated', '`endDate` is before `startDate`.', {
      errors: [{ pointer: '/body/endDate', message: 'Before startDate' }],
    })
  }
  if (a.unit === 'percent' && a.amount > 100) {
    throw new ProblemError('rule_violated', 'A percent allocation is 1 to 100.', {
      errors: [{ pointer: '/body/amount', message: 'At most 100 for percent' }],
    })
  }
}

/**
 * Adds each allocation's person total: the person's allocations overlapping it, summed by unit.
 * One query for the page, over every project (hidden ones are counted, never named).
 */
async function withTotals(ctx: OperationContext, records: AllocationRecord[]): Promise<Allocation[]> {
  if (records.length === 0) return []
  const orgId = currentOrg(ctx).id
  const from = records.map((r) => r.startDate).sort()[0]!
  const to = records
    .map((r) => r.endDate)
    .sort()
    .at(-1)!
  const people = [...new Set(records.map((r) => r.memberId))]
  const others = await ctx.store.allocations.overlapping(orgId, people, from, to)
  return records.map((r) => {
    const overlapping = others.filter(
      (o) => o.memberId === r.memberId && o.startDate <= r.endDate && o.endDate >= r.startDate,
    )
    const sum = (unit: AllocationUnit) =>
      overlapping.filter((o) => o.unit === unit).reduce((n, o) => n + o.amount, 0)
    return {
      ...r,
      personTotal: {
        allocations: overlapping.length,
        percent: sum('percent'),
        hoursPerWeek: sum('hoursPerWeek'),
      },
    }
  })
}

async function requireRecord(ctx: OperationContext, id: AllocationId): Promise<AllocationRecord> {
  const record = await ctx.store.allocations.get(currentOrg(ctx).id, id, await ctx.scope())
  if (!record) throw notFound('Allocation')
  return record
}

export async function requireAllocation(ctx: OperationContext, id: AllocationId): Promise<Allocation> {
  return (await withTotals(ctx, [await requireRecord(ctx, id)]))[0]!
}

export async function listAllocations(
  ctx: OperationContext,
  query: AllocationFilter & { cursor?: string; limit?: number },
): Promise<Page<Allocation>> {
  const orgId = currentOrg(ctx).id
  const filter: AllocationFilter = {
    projectId: query.projectId,
    memberId: query.memberId,
    from: query.from === undefined ? undefined : calendarDate(query.from, '/query/from'),
    to: query.to === undefined ? undefined : calendarDate(query.to, '/query/to'),
  }
  const scope = await ctx.scope()
  const page = await readPage(ctx, {
    scope: ['allocations.list', filter],
    query,
    sort: 'startDate',
    direction: 'asc',
    keyOf: (a: AllocationRecord) => a.startDate,
    fetch: (p) => ctx.store.allocations.list(orgId, filter, p, scope),
  })
  return { ...page, data: await withTotals(ctx, page.data) }
}

export async function createAllocation(
  ctx: OperationContext,
  input: {
    projectId: ProjectId
    memberId: MemberId
    startDate: string
    endDate: string
    unit: AllocationUnit
    amount: number
    note?: string | null
  },
): Promise<Allocation> {
  const project = await requireProject(ctx, input.projectId)
  await activeMember(ctx, input.memberId, '/body/memberId')
  const record: AllocationRecord = {
    id: newId('AllocationId'),
    orgId: project.orgId,
    projectId: project.id,
    memberId: input.memberId,
    startDate: input.startDate,
    endDate: input.endDate,
    unit: input.unit,
    amount: input.amount,
    note: input.note ?? null,
    creatorId: ctx.actor!.id as MemberId,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  }
  checkFields(record)
  await ctx.store.allocations.insert(record)
  const allocation = await requireAllocation(ctx, record.id)
  await emitAllocation(ctx, 'allocation.created', { allocation })
  return allocation
}

export async function updateAllocation(
  ctx: OperationContext,
  id: AllocationId,
  input: AllocationFields,
): Promise<Allocation> {
  const record = await requireRecord(ctx, id)
  const changed = Object.fromEntries(
    Object.entries(input).filter(([k, v]) => v !== undefined && record[k as keyof AllocationRecord] !== v),
  ) as AllocationFields
  if (Object.keys(changed).length === 0) return requireAllocation(ctx, id)
  checkFields({ ...record, ...changed } as AllocationRecord)
  await ctx.store.allocations.update(record.orgId, id, { ...changed, updatedAt: ctx.now })
  const allocation = await requireAllocation(ctx, id)
  await emitAllocation(ctx, 'allocation.updated', { allocation, changes: Object.keys(changed) })
  return allocation
}

export async function deleteAllocation(ctx: OperationContext, id: AllocationId): Promise<void> {
  const record = await requireRecord(ctx, id)
  await ctx.store.allocations.delete(record.orgId, id)
  await emitAllocation(ctx, 'allocation.deleted', { allocation: record })
}

/** Filed under the project's first team, as project events are (projects/project-records.ts). */
async function emitAllocation(
  ctx: OperationContext,
  kind: `allocation.${string}`,
  data: { allocation: Omit<Allocation, 'personTotal'> } & Record<string, unknown>,
) {
  const project = await ctx.store.projects.get(data.allocation.orgId, data.allocation.projectId, UNSCOPED)
  ctx.emit({
    kind,
    resourceType: 'allocation',
    resourceId: data.allocation.id,
    teamId: (project?.teamIds[0] ?? null) as TeamId | null,
    data,
  })
}

import { currentOrg } from '../../kernel/context.ts'
import { type InitiativeId, newId } from '../../kernel/ids.ts'
import type { OperationContext } from '../../kernel/operation.ts'
import type { Page } from '../../kernel/pagination.ts'
import { readPage } from '../../kernel/paging.ts'
import { notFound, ProblemError } from '../../kernel/problems.ts'
import { recordHistory } from '../history/history.ts'
import type { Initiative } from '../schemas.ts'
import { emitInitiative, requireInitiative, usable } from '../service.ts'
import type {
  InitiativeMetric,
  InitiativeMetricRecord,
  InitiativeMetricValue,
  MetricSetBody,
} from './schemas.ts'

/** (current − initial) / (target − initial), kept between 0 and 1; a target below `initial` counts down. */
export function metricProgress(m: Pick<InitiativeMetricRecord, 'initial' | 'target' | 'current'>): number {
  const ratio = (m.current - m.initial) / (m.target - m.initial)
  return Math.min(1, Math.max(0, Number.isFinite(ratio) ? ratio : 0))
}

const withProgress = (m: InitiativeMetricRecord): InitiativeMetric => ({ ...m, progress: metricProgress(m) })

/** The initiative's metric, or null without one; the caller checked it may view the initiative. */
export async function metricOf(ctx: OperationContext, id: InitiativeId): Promise<InitiativeMetric | null> {
  const m = await ctx.store.initiativeMetrics.get(currentOrg(ctx).id, id)
  return m ? withProgress(m) : null
}

/** `initiatives.get`: the initiative with its metric. */
export async function initiativeWithMetric(
  ctx: OperationContext,
  id: InitiativeId,
): Promise<Initiative & { metric: InitiativeMetric | null }> {
  const initiative = await requireInitiative(ctx, id)
  return { ...initiative, metric: await metricOf(ctx, id) }
}

function checkMetric(body: MetricSetBody): void {
  const errors: { pointer: string; message: string }[] = []
  if (body.target === body.initial)
    errors.push({ pointer: '/body/target', message: 'Must differ from initial' })
  if (body.unit === 'currency' && !body.currencyCode)
    errors.push({ pointer: '/body/currencyCode', message: 'Required with the unit currency' })
  if (body.unit !== 'currency' && body.currencyCode)
    errors.push({ pointer: '/body/currencyCode', message: 'Only with the unit currency' })
  if (errors.length > 0) throw new ProblemError('rule_violated', 'The metric is not consistent.', { errors })
}

/** Defines or redefines the metric; a redefinition keeps the latest recorded value. */
export async function setMetric(
  ctx: OperationContext,
  id: InitiativeId,
  body: MetricSetBody,
): Promise<InitiativeMetric> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  checkMetric(body)
  const orgId = currentOrg(ctx).id
  const before = await ctx.store.initiativeMetrics.get(orgId, id)
  const metric: InitiativeMetricRecord = {
    initiativeId: id,
    unit: body.unit,
    currencyCode: body.unit === 'currency' ? (body.currencyCode ?? null) : null,
    precision: body.precision ?? 0,
    initial: body.initial,
    target: body.target,
    current: before?.current ?? body.initial,
    progressSource: body.progressSource ?? 'manual',
    updatedAt: ctx.now,
  }
  await ctx.store.initiativeMetrics.put(orgId, metric)
  const answer = withProgress(metric)
  await recordHistory(ctx, id, {
    action: 'metric_set',
    changes: { metric: { before: before ?? null, after: metric } },
  })
  emitInitiative(ctx, 'initiative_metric.updated', initiative, { metric: answer, previous: before ?? null })
  return answer
}

export async function deleteMetric(ctx: OperationContext, id: InitiativeId): Promise<void> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  const orgId = currentOrg(ctx).id
  const before = await ctx.store.initiativeMetrics.get(orgId, id)
  if (!before || !(await ctx.store.initiativeMetrics.delete(orgId, id))) throw notFound('Metric')
  await recordHistory(ctx, id, { action: 'metric_deleted', changes: { metric: { before, after: null } } })
  emitInitiative(ctx, 'initiative_metric.deleted', initiative, { metric: before })
}

/** A check-in: stores the value with its note and makes it the metric's current value. */
export async function recordMetricValue(
  ctx: OperationContext,
  id: InitiativeId,
  body: { value: number; note?: string },
): Promise<InitiativeMetricValue> {
  const initiative = await requireInitiative(ctx, id)
  usable(initiative)
  const orgId = currentOrg(ctx).id
  const metric = await ctx.store.initiativeMetrics.get(orgId, id)
  if (!metric) throw new ProblemError('metric_not_set', 'The initiative has no metric to record a value of.')
  const value: InitiativeMetricValue = {
    id: newId('InitiativeMetricValueId'),
    initiativeId: id,
    value: body.value,
    note: body.note ?? null,
    authorId: ctx.actor!.id,
    createdAt: ctx.now,
  }
  await ctx.store.initiativeMetrics.insertValue(orgId, value)
  const next = { ...metric, current: body.value, updatedAt: ctx.now }
  await ctx.store.initiativeMetrics.put(orgId, next)
  emitInitiative(ctx, 'initiative_metric_value.created', initiative, {
    value,
    metric: withProgress(next),
  })
  return value
}

export async function listMetricValues(
  ctx: OperationContext,
  id: InitiativeId,
  query: { cursor?: string; limit?: number },
): Promise<Page<InitiativeMetricValue>> {
  await requireInitiative(ctx, id)
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['initiatives.metric.values.list', orgId, id],
    query,
    sort: 'createdAt',
    direction: 'desc',
    keyOf: (v: InitiativeMetricValue) => v.createdAt,
    fetch: (page) => ctx.store.initiativeMetrics.values(orgId, id, page),
  })
}

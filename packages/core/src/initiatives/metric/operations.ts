import { Type } from '@sinclair/typebox'
import type { InitiativeId } from '../../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../../kernel/operation.ts'
import { paramsOf, subListOperation } from '../../kernel/resource.ts'
import { examples } from '../examples.ts'
import { deleteMetric, listMetricValues, recordMetricValue, setMetric } from './metric.ts'
import { InitiativeMetric, InitiativeMetricValue, MetricSetBody, MetricValueBody } from './schemas.ts'

const TAG = 'Initiatives'
const metricPath = '/v1/orgs/{orgId}/initiatives/{initiativeId}/metric'
const metricParams = Type.Object(paramsOf(metricPath), { additionalProperties: false })
const target = ({ params }: { params: Record<string, unknown> }) => ({
  type: 'initiative' as const,
  id: params.initiativeId as string,
})
const initiativeOf = (params: Record<string, unknown>) => params.initiativeId as InitiativeId

/** The key metric of an initiative: its definition and check-ins (`initiatives.get` shows it). */
export const metricOperations: AnyOperation[] = [
  declareOperation({
    id: 'initiatives.metric.set',
    method: 'PUT',
    path: metricPath,
    tag: TAG,
    scope: 'work:write',
    summary: "Define an initiative's metric",
    description:
      'Defines or redefines the key metric the initiative is measured by: its unit (`currency` needs ' +
      '`currencyCode`), precision, initial and target values (which must differ) and what its progress follows. ' +
      'A redefinition keeps the latest recorded value as `current`; a new metric starts at `initial`. With ' +
      "`progressSource` `manual` (the default) `initiatives.rollup` reports the metric's progress. Needs " +
      '`contribute` on the initiative. A metric whose fields do not agree (such as `currencyCode` without the unit `currency`) is 422 `rule_violated`.',
    params: metricParams,
    body: MetricSetBody,
    response: InitiativeMetric,
    status: 200,
    capability: 'contribute',
    target,
    errors: ['not_found', 'archived', 'rule_violated'],
    examples: examples.metricSet,
    run: (ctx, { params, body }) => setMetric(ctx, initiativeOf(params), body as never),
  }),
  declareOperation({
    id: 'initiatives.metric.delete',
    method: 'DELETE',
    path: metricPath,
    tag: TAG,
    scope: 'work:write',
    summary: "Remove an initiative's metric",
    description:
      'Deletes the metric and its recorded values; the initiative’s progress follows its projects again. 404 when ' +
      'it has no metric. Needs `contribute` on the initiative.',
    params: metricParams,
    response: null,
    status: 204,
    capability: 'contribute',
    target,
    errors: ['not_found', 'archived'],
    run: async (ctx, { params }) => {
      await deleteMetric(ctx, initiativeOf(params))
      return undefined
    },
  }),
  declareOperation({
    id: 'initiatives.metric.values.create',
    method: 'POST',
    path: `${metricPath}/values`,
    tag: TAG,
    scope: 'work:write',
    summary: "Record a value of an initiative's metric",
    description:
      'A check-in: the value, with an optional note, becomes the metric’s `current` value and is kept in its ' +
      'history. 409 `metric_not_set` without a metric. Needs `contribute` on the initiative.',
    params: metricParams,
    body: MetricValueBody,
    response: InitiativeMetricValue,
    status: 201,
    capability: 'contribute',
    target,
    errors: ['not_found', 'archived', 'metric_not_set'],
    examples: examples.metricValueCreate,
    run: (ctx, { params, body }) => recordMetricValue(ctx, initiativeOf(params), body as never),
  }),
  subListOperation({
    id: 'initiatives.metric.values.list',
    path: `${metricPath}/values`,
    tag: TAG,
    summary: "List the recorded values of an initiative's metric",
    description:
      'Check-ins of the current metric, newest first (deleting the metric deletes them). An initiative the ' +
      'caller cannot view is a 404.',
    item: InitiativeMetricValue,
    itemName: 'InitiativeMetricValue',
    examples: examples.metricValues,
    run: (ctx, params, query) => listMetricValues(ctx, initiativeOf(params), query),
  }),
]

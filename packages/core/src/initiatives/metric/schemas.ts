import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../../access/schemas.ts'
import { IdSchema } from '../../kernel/ids.ts'
import { Nullable, StringEnum, Timestamp } from '../../kernel/schema-types.ts'

export const METRIC_UNITS = ['none', 'number', 'percentage', 'currency'] as const
export type MetricUnit = (typeof METRIC_UNITS)[number]
export const METRIC_PROGRESS_SOURCES = ['manual', 'projects'] as const
export type MetricProgressSource = (typeof METRIC_PROGRESS_SOURCES)[number]

const MetricNumber = (description: string) => Type.Number({ minimum: -1e15, maximum: 1e15, description })

export const MetricUnitSchema = StringEnum(METRIC_UNITS, {
  description:
    'How values read: a bare count (`none`, `number`), a percentage, or an amount of `currencyCode`.',
})
export const CurrencyCode = Type.String({
  pattern: '^[A-Z]{3}$',
  description: 'ISO 4217 code, e.g. `EUR`; only with the unit `currency`, and required with it.',
})
export const MetricProgressSourceSchema = StringEnum(METRIC_PROGRESS_SOURCES, {
  description:
    "What the initiative's progress follows: `manual`, the metric ((current − initial) / (target − initial), kept " +
    "between 0 and 1); `projects`, its projects' tasks as without a metric.",
})

export const InitiativeMetric = Type.Object(
  {
    initiativeId: IdSchema('InitiativeId'),
    unit: MetricUnitSchema,
    currencyCode: Nullable(CurrencyCode, 'Set only with the unit `currency`.'),
    precision: Type.Integer({ minimum: 0, maximum: 6, description: 'Decimal places values are shown with.' }),
    initial: MetricNumber('Where the metric started.'),
    target: MetricNumber('Where it should get to; never equal to `initial`.'),
    current: MetricNumber('The latest recorded value; `initial` until one is recorded.'),
    progressSource: MetricProgressSourceSchema,
    progress: Type.Number({
      minimum: 0,
      maximum: 1,
      description: '(current − initial) / (target − initial), kept between 0 and 1. Computed.',
    }),
    updatedAt: Timestamp('When it was defined or a value was last recorded.'),
  },
  {
    $id: 'InitiativeMetric',
    additionalProperties: false,
    description: 'The key result an initiative is measured by, with its latest value.',
  },
)
export type InitiativeMetric = Static<typeof InitiativeMetric>
/** As stored: `progress` is computed. */
export type InitiativeMetricRecord = Omit<InitiativeMetric, 'progress'>

export const InitiativeMetricValue = Type.Object(
  {
    id: IdSchema('InitiativeMetricValueId'),
    initiativeId: IdSchema('InitiativeId'),
    value: MetricNumber('The value checked in.'),
    note: Nullable(Type.String({ maxLength: 2000 }), 'What the author said about it.'),
    authorId: ActorIdSchema,
    createdAt: Timestamp('When it was recorded.'),
  },
  { $id: 'InitiativeMetricValue', additionalProperties: false, description: 'One check-in of the metric.' },
)
export type InitiativeMetricValue = Static<typeof InitiativeMetricValue>

export const MetricSetBody = Type.Object(
  {
    unit: MetricUnitSchema,
    currencyCode: Type.Optional(Nullable(CurrencyCode)),
    precision: Type.Optional(Type.Integer({ minimum: 0, maximum: 6, default: 0 })),
    initial: MetricNumber('Where the metric starts.'),
    target: MetricNumber('Where it should get to; not equal to `initial`.'),
    progressSource: Type.Optional(MetricProgressSourceSchema),
  },
  { additionalProperties: false },
)
export type MetricSetBody = Static<typeof MetricSetBody>

export const MetricValueBody = Type.Object(
  {
    value: MetricNumber('The value now.'),
    note: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Why it moved.' })),
  },
  { additionalProperties: false },
)

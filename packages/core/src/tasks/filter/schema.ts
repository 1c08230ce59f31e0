import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { type IdBrand, IdSchema } from '../../kernel/ids.ts'
import { StringEnum } from '../../kernel/schema-types.ts'
import { STATE_CATEGORIES } from '../../teams/schemas.ts'
import { PRIORITIES } from '../schemas.ts'

/** Most values all the lists of one filter hold together (each side of a page repeats them in SQL). */
export const FILTER_MAX_VALUES = 500
/** Most comparisons (each operator of each comparator) one filter holds. */
export const FILTER_MAX_CONDITIONS = 50
/** How deep `and`, `or` and `not` nest: the filter itself is level 1. */
export const FILTER_MAX_DEPTH = 5

const LIST_MAX = 100

/** A time relative to the request: an ISO 8601 duration from now, before now with a leading `-`. */
export const RELATIVE_PATTERN = '^-?P(?:[0-9]{1,4}[DWMY]|T[0-9]{1,4}H)$'
const Relative = Type.String({
  pattern: RELATIVE_PATTERN,
  description:
    'Relative to the time of the request (UTC): `P7D` is 7 days from now, `-P2W` two weeks ago, `P0D` today; ' +
    'units `D`, `W`, `M`, `Y`, or hours as `PT12H`.',
  examples: ['P7D'],
})

export const listOf = <T extends TSchema>(item: T) =>
  Type.Array(item, { minItems: 1, maxItems: LIST_MAX, uniqueItems: true })

export const comparator = (properties: Record<string, TSchema>, description: string, $id?: string) =>
  Type.Object(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, Type.Optional(v)])), {
    additionalProperties: false,
    minProperties: 1,
    description,
    ...($id ? { $id } : {}),
  })

export const IsNull = Type.Boolean({
  description: '`true`: only tasks without a value; `false`: only tasks with one.',
})

function idComparator(brand: IdBrand, nullable: boolean) {
  const id = IdSchema(brand)
  return comparator(
    { eq: id, neq: id, in: listOf(id), nin: listOf(id), ...(nullable ? { null: IsNull } : {}) },
    `Compares the ${brand}: \`eq\`, \`neq\`, \`in\`, \`nin\`${nullable ? ', `null`' : ''}. \`neq\` and \`nin\` also match tasks without one.`,
  )
}

const enumComparator = (values: readonly string[], what: string) => {
  const one = StringEnum(values as readonly [string, ...string[]])
  return comparator(
    { eq: one, neq: one, in: listOf(one), nin: listOf(one) },
    `Compares the ${what}: \`eq\`, \`neq\`, \`in\`, \`nin\`.`,
  )
}

const DateValue = Type.Union([Type.String({ format: 'date' }), Relative], {
  description: 'A day `YYYY-MM-DD`, or a duration from today (`P7D`, `-P1M`).',
})
const InstantValue = Type.Union([Type.String({ format: 'date-time' }), Relative], {
  description: 'An instant (RFC 3339), or a duration from now (`-PT24H`, `-P7D`).',
})

export const DateComparator = comparator(
  {
    eq: DateValue,
    neq: DateValue,
    gt: DateValue,
    gte: DateValue,
    lt: DateValue,
    lte: DateValue,
    null: IsNull,
  },
  'Compares a calendar date; several operators must all hold (`{ "gte": "P0D", "lte": "P7D" }`: in the next 7 days). Tasks without a date match only `neq` and `null: true`.',
  'DateComparator',
)
export const InstantComparator = comparator(
  { gt: InstantValue, gte: InstantValue, lt: InstantValue, lte: InstantValue, null: IsNull },
  'Compares an instant; several operators must all hold. Tasks without one match only `null: true`.',
  'InstantComparator',
)
const Num = Type.Number({ minimum: -1e12, maximum: 1e12 })
export const NumberComparator = comparator(
  {
    eq: Num,
    neq: Num,
    in: listOf(Num),
    nin: listOf(Num),
    gt: Num,
    gte: Num,
    lt: Num,
    lte: Num,
    null: IsNull,
  },
  'Compares a number; several operators must all hold. Tasks without one match only `neq`, `nin` and `null: true`.',
  'NumberComparator',
)
const FieldScalar = Type.Union([Type.String({ minLength: 1, maxLength: 2000 }), Num], {
  description:
    'A number for a number field, a day or a duration (`P7D`) for a date field, an option id for a select or multi-select, a MemberId for a person field, the text for a text or url field.',
})
export const FieldComparator = Type.Object(
  {
    id: IdSchema('CustomFieldId', 'The custom field, active, that applies to tasks.'),
    eq: Type.Optional(FieldScalar),
    neq: Type.Optional(FieldScalar),
    in: Type.Optional(listOf(FieldScalar)),
    nin: Type.Optional(listOf(FieldScalar)),
    gt: Type.Optional(FieldScalar),
    gte: Type.Optional(FieldScalar),
    lt: Type.Optional(FieldScalar),
    lte: Type.Optional(FieldScalar),
    null: Type.Optional(IsNull),
  },
  {
    $id: 'FieldComparator',
    additionalProperties: false,
    minProperties: 2,
    description:
      'Compares a custom field value: a multi-select `eq`/`in` one of its options when the task holds it; `gt`…`lte` on number and date fields only. Tasks without a value match only `neq`, `nin` and `null: true`.',
  },
)

/** The parts of a task filter that mean the same in every workspace (the hub's filter reuses them). */
export const StateCategoryComparator = enumComparator(STATE_CATEGORIES, 'category of the task’s state')
export const PriorityComparator = enumComparator(PRIORITIES, 'priority')
export const SearchText = Type.String({
  minLength: 1,
  maxLength: 200,
  description:
    'Full-text words, as `q` of `tasks.list`: each (at most 8) begins a word of the title or the description.',
})
export const BlockedFlag = Type.Boolean({
  description: '`true`: an open task the caller can view blocks it; `false`: none does.',
})

const LabelComparator = comparator(
  {
    in: listOf(IdSchema('LabelId')),
    nin: listOf(IdSchema('LabelId')),
    all: listOf(IdSchema('LabelId')),
    null: IsNull,
  },
  'The labels: `in` carries at least one of them, `nin` none of them, `all` every one; `null: true` carries no label.',
)

/**
 * The task filter of `tasks.query` and of saved views: fields compared by operators, combined with
 * `and`, `or` and `not` (docs/filters.md). The keys of one object must all hold.
 */
export const TaskFilterSchema = Type.Recursive(
  (This) =>
    Type.Object(
      {
        and: Type.Optional(Type.Array(This, { minItems: 1, maxItems: 20, description: 'Every one holds.' })),
        or: Type.Optional(
          Type.Array(This, { minItems: 1, maxItems: 20, description: 'At least one holds.' }),
        ),
        not: Type.Optional(This),
        teamId: Type.Optional(idComparator('TeamId', false)),
        stateId: Type.Optional(idComparator('StateId', false)),
        stateCategory: Type.Optional(StateCategoryComparator),
        assigneeId: Type.Optional(idComparator('MemberId', true)),
        creatorId: Type.Optional(
          comparator(
            {
              eq: Type.String({ pattern: '^(mem|agt)_[0-9A-HJKMNP-TV-Z]{26}$' }),
              in: listOf(Type.String({ pattern: '^(mem|agt)_[0-9A-HJKMNP-TV-Z]{26}$' })),
            },
            'Who created the task, a MemberId or an AgentId: `eq`, `in`.',
          ),
        ),
        priority: Type.Optional(PriorityComparator),
        estimate: Type.Optional(NumberComparator),
        dueDate: Type.Optional(DateComparator),
        startDate: Type.Optional(DateComparator),
        createdAt: Type.Optional(InstantComparator),
        updatedAt: Type.Optional(InstantComparator),
        startedAt: Type.Optional(InstantComparator),
        completedAt: Type.Optional(InstantComparator),
        canceledAt: Type.Optional(InstantComparator),
        cycleId: Type.Optional(idComparator('CycleId', true)),
        projectId: Type.Optional(idComparator('ProjectId', true)),
        milestoneId: Type.Optional(idComparator('MilestoneId', true)),
        parentId: Type.Optional(idComparator('TaskId', true)),
        labelIds: Type.Optional(LabelComparator),
        field: Type.Optional(FieldComparator),
        search: Type.Optional(SearchText),
        blocked: Type.Optional(BlockedFlag),
      },
      {
        additionalProperties: false,
        minProperties: 1,
        description:
          'A task filter: each key holds, `and`, `or` and `not` combine filters (at most 5 levels deep, 50 comparisons and 500 listed values in all). docs/filters.md.',
      },
    ),
  { $id: 'TaskFilter' },
)
export type TaskFilterInput = Static<typeof TaskFilterSchema>

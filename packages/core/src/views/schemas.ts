import { Kind, type Static, Type, TypeRegistry } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import type { TaskFilterInput } from '../tasks/filter/schema.ts'

export const VIEW_MODELS = ['tasks', 'projects'] as const
export type ViewModel = (typeof VIEW_MODELS)[number]

const FILTER_VALUE_MAX = 500
// A query parameter's value, or for `filter` of a view of tasks a composed TaskFilter (docs/filters.md),
// spelled as one schema with a type list (the interactive reference's document reader refuses an
// `anyOf` without a `type`). `filter` is not a named property because a view of projects has none:
// each model's keys are its list's own, checked when the view is saved.
TypeRegistry.Set<unknown>(
  'ViewFilterValue',
  (_schema, value) =>
    (typeof value === 'string' && value.length <= FILTER_VALUE_MAX) ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean' ||
    (typeof value === 'object' && value !== null && !Array.isArray(value)),
)
const ViewFilterValue = Type.Unsafe<string | number | boolean | TaskFilterInput>({
  [Kind]: 'ViewFilterValue',
  type: ['string', 'number', 'boolean', 'object'],
  maxLength: FILTER_VALUE_MAX,
  description: 'A query parameter’s value; for `filter` (views of tasks), a TaskFilter.',
})

export const ViewFilter = Type.Object(
  {},
  {
    additionalProperties: ViewFilterValue,
    maxProperties: 30,
    description:
      'What the view runs, without `cursor` and `limit`: for tasks the body of `tasks.query` (the query parameters of `tasks.list` and a composed `filter`, a TaskFilter: docs/filters.md), for projects the query parameters of `projects.list`; checked against that schema when saved.',
  },
)
export type ViewFilter = { filter?: TaskFilterInput } & Record<
  string,
  string | number | boolean | TaskFilterInput
>

export const View = Type.Object(
  {
    id: IdSchema('ViewId'),
    orgId: IdSchema('OrgId'),
    name: Name('The view name.', 80),
    description: Nullable(Type.String({ maxLength: 2000 }), 'What the view is for.'),
    model: StringEnum(VIEW_MODELS, { description: 'What it lists: tasks or projects.' }),
    filter: ViewFilter,
    visibility: StringEnum(['personal', 'team'] as const, {
      description: '`personal`: only its owner sees it; `team`: everyone who can view the team.',
    }),
    teamId: Nullable(IdSchema('TeamId'), 'The team it is shared with; null for a personal view.'),
    ownerId: IdSchema('MemberId', 'The member who saved it.'),
    createdAt: Timestamp('When the view was saved.'),
    updatedAt: Timestamp('When the view last changed.'),
  },
  {
    $id: 'View',
    additionalProperties: false,
    description: 'A saved view: a named filter over tasks or projects, personal or shared with a team.',
  },
)
export type View = Static<typeof View>

// The bodies take the view's own field schemas (kernel/body-fields.ts): one type to send and read.
const editable = optionalFieldsOf(View, {
  description: true,
  teamId: 'Share with this team (needs `contribute` on it); null keeps or makes the view personal.',
})

export const CreateViewBody = Type.Object(
  {
    ...fieldsOf(View, { name: true, filter: true }),
    ...editable,
    ...optionalFieldsOf(View, { model: { default: 'tasks', description: 'tasks (default) or projects.' } }),
  },
  { $id: 'ViewCreate', additionalProperties: false },
)

export const UpdateViewBody = Type.Object(
  { ...optionalFieldsOf(View, { name: true, filter: true }), ...editable },
  { $id: 'ViewUpdate', additionalProperties: false, minProperties: 1 },
)

import { Kind, type Static, Type, TypeRegistry } from '@sinclair/typebox'
import { fieldsOf, optionalFieldsOf } from '../kernel/body-fields.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Name, Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'
import { TaskFilterSchema } from '../tasks/filter-schema.ts'

export const VIEW_MODELS = ['tasks', 'projects'] as const
export type ViewModel = (typeof VIEW_MODELS)[number]

const FILTER_VALUE_MAX = 500
// A query parameter's value, spelled as one schema with a type list: the interactive reference's
// document reader refuses an `anyOf` without a `type`.
TypeRegistry.Set<unknown>(
  'FilterValue',
  (_schema, value) =>
    (typeof value === 'string' && value.length <= FILTER_VALUE_MAX) ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    typeof value === 'boolean',
)
const FilterValue = Type.Unsafe<string | number | boolean>({
  [Kind]: 'FilterValue',
  type: ['string', 'number', 'boolean'],
  maxLength: FILTER_VALUE_MAX,
})

// Keys are checked against the list's query schema when the view is saved.
export const ViewFilter = Type.Object(
  { filter: Type.Optional(TaskFilterSchema) },
  {
    additionalProperties: FilterValue,
    maxProperties: 30,
    description:
      'What the view runs, without `cursor` and `limit`: for tasks the body of `tasks.query` (the query parameters of `tasks.list` and a composed `filter`), for projects the query parameters of `projects.list`; checked against that schema when saved.',
  },
)
export type ViewFilter = Static<typeof ViewFilter>

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

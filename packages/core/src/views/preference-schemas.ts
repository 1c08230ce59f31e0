import { type Static, Type } from '@sinclair/typebox'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum } from '../kernel/schema-types.ts'

export const VIEW_LAYOUTS = ['list', 'board', 'timeline', 'table'] as const
export const PREFERENCE_LEVELS = ['mine', 'default'] as const
export type PreferenceLevel = (typeof PREFERENCE_LEVELS)[number]

const FieldName = (description: string) =>
  Nullable(Type.String({ minLength: 1, maxLength: 64 }), `${description}; null: none.`)

const fields = {
  layout: StringEnum(VIEW_LAYOUTS, { description: 'How the results are laid out.' }),
  groupBy: FieldName('The field rows are grouped by (`state`, `assignee`, `priority`, …)'),
  subGroupBy: FieldName('The field groups are split by'),
  orderBy: FieldName('The field rows are ordered by within a group'),
  columns: Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
    maxItems: 50,
    uniqueItems: true,
    description: 'The fields shown, in order.',
  }),
  showEmptyGroups: Type.Boolean({ description: 'Whether groups without rows are shown.' }),
  showSubtasks: Type.Boolean({ description: 'Whether subtasks are listed under their parents.' }),
}

/** Every display setting, as the caller sees the view. */
export const ViewDisplay = Type.Object(fields, {
  $id: 'ViewDisplay',
  additionalProperties: false,
  description: 'Display settings of a saved view: layout, grouping, ordering, columns.',
})
export type ViewDisplay = Static<typeof ViewDisplay>

/** The settings one level overrides; what it leaves out comes from the level below. */
export const ViewDisplayOverrides = Type.Partial(Type.Object(fields), {
  $id: 'ViewDisplayOverrides',
  additionalProperties: false,
  description: 'Only the settings this level sets; the others come from the level below.',
})
export type ViewDisplayOverrides = Static<typeof ViewDisplayOverrides>

/** What a view looks like before anyone set anything. */
export const BUILT_IN_DISPLAY: ViewDisplay = {
  layout: 'list',
  groupBy: null,
  subGroupBy: null,
  orderBy: null,
  columns: [],
  showEmptyGroups: false,
  showSubtasks: true,
}

export const ViewPreferences = Type.Object(
  {
    viewId: IdSchema('ViewId'),
    effective: ViewDisplay,
    viewDefault: Nullable(
      ViewDisplayOverrides,
      "The view's defaults for everyone who sees it (set by whoever may edit the view); null: none.",
    ),
    mine: Nullable(ViewDisplayOverrides, "The caller's own overrides; null: none."),
    updatedAt: NullableTimestamp("When the caller's overrides last changed; null: never set."),
  },
  {
    $id: 'ViewPreferences',
    additionalProperties: false,
    description:
      'Display settings of a saved view: built-in settings, overridden by the view default, overridden by mine.',
  },
)
export type ViewPreferences = Static<typeof ViewPreferences>

export const PutViewPreferencesBody = Type.Object(
  {
    level: Type.Optional(
      StringEnum(PREFERENCE_LEVELS, {
        default: 'mine',
        description:
          '`mine` (default): the caller’s own overrides; `default`: the view’s defaults for everyone, which needs the right to edit the view.',
      }),
    ),
    preferences: ViewDisplayOverrides,
  },
  { additionalProperties: false },
)

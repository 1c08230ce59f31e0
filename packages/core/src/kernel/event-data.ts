import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import { AnyJson } from './schema-types.ts'

/**
 * The `changes` of an update event, as `changesOf` (history-entry.ts) writes them: each changed
 * field's value before and after (null when it had none).
 */
export const EventChanges = Type.Record(
  Type.String(),
  Type.Object(
    {
      before: AnyJson('The value before the change; null when there was none.'),
      after: AnyJson('The value after the change; null when there is none.'),
    },
    { additionalProperties: false },
  ),
  { $id: 'EventChanges', description: 'The changed fields, each with its value before and after.' },
)

/** The data of an event carrying a record's representation under its name, e.g. `{ task }`. */
export const recordData = (name: string, schema: TSchema): TObject => Type.Object({ [name]: schema })

/** The data of an update event: the record's new representation and the `changes`. */
export const changedData = (name: string, schema: TSchema): TObject =>
  Type.Object({ [name]: schema, changes: EventChanges })

/** The same data schema for several kinds, as `EventKinds.data` takes it. */
export const sameData = (kinds: readonly string[], schema: TSchema): Record<string, TSchema> =>
  Object.fromEntries(kinds.map((kind) => [kind, schema]))

/** Like `changedData`, for a kind some paths emit without `changes` (e.g. a reactivation by invitation). */
export const maybeChangedData = (name: string, schema: TSchema): TObject =>
  Type.Object({ [name]: schema, changes: Type.Optional(EventChanges) })

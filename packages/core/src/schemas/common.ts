import {
  type TArray,
  type TNull,
  type TObject,
  type TSchema,
  type TString,
  type TUnion,
  Type,
} from '@sinclair/typebox'

export const Timestamp = (description: string) => Type.String({ format: 'date-time', description })
export const NullableTimestamp = (description: string) =>
  Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description })

/** `T | null` in a shape OpenAPI 3.1 and TypeBox both read the same way. */
export const Nullable = <T extends TSchema>(schema: T, description?: string) =>
  Type.Union([schema, Type.Null()], description ? { description } : {})

/** The response envelope of every list operation. */
export const PageOf = <T extends TSchema>(
  item: T,
  name: string,
): TObject<{ data: TArray<T>; nextCursor: TUnion<[TString, TNull]> }> =>
  Type.Object(
    {
      data: Type.Array(item),
      nextCursor: Type.Union([Type.String(), Type.Null()], {
        description: 'Pass as `cursor` for the next page; null on the last page.',
      }),
    },
    { $id: `${name}Page`, additionalProperties: false },
  )

export const Name = (description: string, maxLength = 200) =>
  Type.String({ minLength: 1, maxLength, description })

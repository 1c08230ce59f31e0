import { type TSchema, Type } from '@sinclair/typebox'
import type { Catalogue } from '../kernel/group.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { StreamEvent } from './schema.ts'

/** `task_link.created` → `StreamEventTaskLinkCreated`: the component of a kind's variant. */
export const eventVariantName = (kind: string): string =>
  `StreamEvent${kind.replace(/(^|[._])([a-zA-Z])/g, (_m, _s, c: string) => c.toUpperCase())}`

/**
 * `StreamEvent` as the reference describes it: a union discriminated by `kind`, one variant per kind
 * whose `data` a group types (`ResourceGroup.eventData`), and one for every other kind, whose `data` is any
 * object. Built from the catalogue's event kinds, so a kind and its payload are declared once.
 */
export function streamEventUnion(catalogue: Pick<Catalogue, 'events' | 'eventData'>): TSchema {
  // The envelope's fields in their order, with `kind` and `data` those of the variant.
  const fields = (kind: TSchema, data: TSchema) => ({ ...StreamEvent.properties, kind, data })
  const kinds = catalogue.events.flatMap((row) => row.kinds)
  const typed = kinds.flatMap((k) => (catalogue.eventData[k] ? [[k, catalogue.eventData[k]] as const] : []))
  const others = kinds.filter((k) => !catalogue.eventData[k])
  const variants = typed.map(([kind, data]) =>
    Type.Object(fields(Type.Literal(kind), data), {
      $id: eventVariantName(kind),
      additionalProperties: false,
      description: `A \`${kind}\` event.`,
    }),
  )
  const other = Type.Object(
    fields(
      StringEnum(others, { description: 'A kind whose `data` is not typed here (see docs/events.md).' }),
      StreamEvent.properties.data,
    ),
    {
      $id: 'StreamEventOther',
      additionalProperties: false,
      description: 'An event of a kind whose payload is not typed per kind.',
    },
  )
  const ref = (name: string) => `#/components/schemas/${name}`
  const mapping = Object.fromEntries([
    ...typed.map(([kind]) => [kind, ref(eventVariantName(kind))]),
    ...others.map((kind) => [kind, ref('StreamEventOther')]),
  ])
  return Type.Unsafe({
    $id: 'StreamEvent',
    type: 'object',
    description:
      'One entry of a workspace’s event log as stream readers receive it. Branch on `kind`: each typed kind’s `data` has its own schema.',
    oneOf: [...variants, other],
    discriminator: { propertyName: 'kind', mapping },
  })
}

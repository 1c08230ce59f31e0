import { type TObject, type TSchema, Type } from '@sinclair/typebox'
import type { Catalogue } from '../kernel/group.ts'
import { StringEnum } from '../kernel/schema-types.ts'
import { StreamEvent } from './schema.ts'

/** `StreamEvent` + `task_link.created` → `StreamEventTaskLinkCreated`: the component of a kind's variant. */
export const eventVariantName = (name: string, kind: string): string =>
  `${name}${kind.replace(/(^|[._])([a-zA-Z])/g, (_m, _s, c: string) => c.toUpperCase())}`

/**
 * A schema of events (`StreamEvent`, `AuditEntry`) as the reference describes it: a union
 * discriminated by `kind`, one variant per kind whose `data` a group types
 * (`ResourceGroup.eventData`), and one (`<name>Other`) for the other kinds, whose `data` is the
 * schema's own. Built from the catalogue's declarations, so a kind and its payload are declared once.
 */
export function unionByKind(
  name: string,
  envelope: TObject,
  kinds: readonly string[],
  eventData: Readonly<Record<string, TSchema>>,
  description: string,
): TSchema {
  // The envelope's fields in their order, with `kind` and `data` those of the variant.
  const fields = (kind: TSchema, data: TSchema) => ({ ...envelope.properties, kind, data })
  const typed = kinds.flatMap((k) => (eventData[k] ? [[k, eventData[k]] as const] : []))
  const others = kinds.filter((k) => !eventData[k])
  const variants = typed.map(([kind, data]) =>
    Type.Object(fields(Type.Literal(kind), data), {
      $id: eventVariantName(name, kind),
      additionalProperties: false,
      description: `A \`${kind}\` event.`,
    }),
  )
  const ref = (component: string) => `#/components/schemas/${component}`
  const mapping: Record<string, string> = Object.fromEntries(
    typed.map(([kind]) => [kind, ref(eventVariantName(name, kind))]),
  )
  if (others.length > 0) {
    variants.push(
      Type.Object(
        fields(
          StringEnum(others, { description: 'A kind whose `data` is not typed here (see docs/events.md).' }),
          envelope.properties.data as TSchema,
        ),
        {
          $id: `${name}Other`,
          additionalProperties: false,
          description: 'An event of a kind whose payload is not typed per kind.',
        },
      ),
    )
    for (const kind of others) mapping[kind] = ref(`${name}Other`)
  }
  return Type.Unsafe({
    $id: name,
    type: 'object',
    description: `${description} Branch on \`kind\`: each typed kind’s \`data\` has its own schema.`,
    oneOf: variants,
    discriminator: { propertyName: 'kind', mapping },
  })
}

/** `StreamEvent`: every kind the catalogue's groups declare. */
export function streamEventUnion(catalogue: Pick<Catalogue, 'events' | 'eventData'>): TSchema {
  return unionByKind(
    'StreamEvent',
    StreamEvent,
    catalogue.events.flatMap((row) => row.kinds),
    catalogue.eventData,
    'One entry of a workspace’s event log as stream readers receive it.',
  )
}

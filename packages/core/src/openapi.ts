import { CATALOGUE } from './catalogue.ts'
import { generateOpenApi as generateDocument, type OpenApiOptions } from './kernel/openapi.ts'
import type { AnyOperation } from './kernel/operation.ts'
import { streamEventUnion } from './streams/event-union.ts'

/**
 * The OpenAPI 3.1 document of `operations`, as a pure function of the catalogue; the event-stream
 * endpoints the groups declare (`/v1/stream/sse`) are added unless `options` names others, and
 * `StreamEvent` is the union of the event kinds the groups declare.
 */
export function generateOpenApi(
  operations: readonly AnyOperation[],
  options: OpenApiOptions,
): Record<string, unknown> {
  return generateDocument(operations, {
    eventStreams: CATALOGUE.eventStreams,
    components: { StreamEvent: streamEventUnion(CATALOGUE) },
    ...options,
  })
}

import { AUDIT_KINDS } from './admin/audit.ts'
import { AuditEntry } from './admin/schemas.ts'
import { CATALOGUE } from './catalogue.ts'
import { generateOpenApi as generateDocument, type OpenApiOptions } from './kernel/openapi/document.ts'
import type { AnyOperation } from './kernel/operation.ts'
import { streamEventUnion, unionByKind } from './streams/event-union.ts'

/**
 * The OpenAPI 3.1 document of `operations`, as a pure function of the catalogue; the event-stream
 * endpoints the groups declare (`/v1/stream/sse`) are added unless `options` names others, and
 * `StreamEvent` (and `AuditEntry`, the administrative events) is the union of the event kinds the
 * groups declare, each with its typed `data`.
 */
export function generateOpenApi(
  operations: readonly AnyOperation[],
  options: OpenApiOptions,
): Record<string, unknown> {
  return generateDocument(operations, {
    eventStreams: CATALOGUE.eventStreams,
    components: {
      StreamEvent: streamEventUnion(CATALOGUE),
      AuditEntry: unionByKind(
        'AuditEntry',
        AuditEntry,
        Object.values(AUDIT_KINDS).flat(),
        CATALOGUE.eventData,
        'One administrative change, read from the workspace event log.',
      ),
    },
    ...options,
  })
}

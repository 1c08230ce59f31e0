import type { ResourceGroup } from '../kernel/group.ts'
import { streamsCatalogue } from './operations.ts'
import { STREAM_PROBLEMS } from './problems.ts'
import { SSE_ENDPOINT } from './sse-query.ts'

/** Live updates: polling and server-sent events. */
export const streamsGroup: ResourceGroup = {
  name: 'streams',
  tags: [
    {
      name: 'Streams',
      description:
        'Live updates: every change as an event, by polling here or over server-sent events at `/v1/stream/sse` (see docs/events.md).',
    },
  ],
  operations: streamsCatalogue,
  problems: STREAM_PROBLEMS,
  eventStreams: [SSE_ENDPOINT],
}

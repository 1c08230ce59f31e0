import { type Static, Type } from '@sinclair/typebox'
import type { StoredEvent } from '../kernel/events/events.ts'
import { IdSchema } from '../kernel/ids.ts'
import { CursorParam } from '../kernel/pagination.ts'
import { AnyJson, Nullable, StringEnum, Timestamp } from '../kernel/schema-types.ts'

/** `resource.verb`: lower-case words joined by `_`, camelCase tolerated. */
const KIND = '[a-z][A-Za-z_]*\\.[a-z][A-Za-z_]*'

/** One entry of an org's event log as stream readers receive it: the `stream-event` payload. */
export const StreamEvent = Type.Object(
  {
    id: IdSchema('EventId', 'Stable event id: the same event always has the same id, wherever it is read.'),
    orgId: IdSchema('OrgId', 'The workspace whose log holds the event.'),
    seq: Type.Integer({
      minimum: 1,
      description: "Position in the workspace's log: gap-free and strictly increasing per workspace.",
    }),
    kind: Type.String({
      pattern: `^${KIND}$`,
      description:
        '`resource.verb`, e.g. `task.created`, `task.updated`, `grant.deleted` (see docs/events.md).',
    }),
    actorId: Nullable(Type.String(), 'The member or agent who made the change; null for the system.'),
    resourceType: Type.String({ description: 'What changed, e.g. `task`, `workflow_state`, `grant`.' }),
    resourceId: Type.String({ description: 'The id of the record that changed.' }),
    teamId: Nullable(Type.String(), 'The team holding the record; null for workspace-level records.'),
    data: Type.Record(Type.String(), AnyJson('The new representation, and `changes` for updates.'), {
      description:
        "The resource's new representation under its type name (e.g. `task`), plus `changes` (the changed fields, old and new) for `*.updated` events.",
    }),
    createdAt: Timestamp('When the change was made.'),
  },
  { $id: 'StreamEvent', additionalProperties: false },
)

export const StreamPage = Type.Object(
  {
    data: Type.Array(StreamEvent),
    nextCursor: Type.String({
      description:
        'Where to continue: pass as `cursor` on the next call. Always set; it moves past events you cannot see, so it stays within retention.',
    }),
  },
  { $id: 'StreamPage', additionalProperties: false },
)

export const STREAM_END_REASONS = [
  'token_expired',
  'consent_revoked',
  'membership_ended',
  'slow_reader',
  'cursor_expired',
  'shutdown',
] as const
export type StreamEndReason = (typeof STREAM_END_REASONS)[number]

/** The payload of the final `stream-end` frame of an SSE stream. */
export const StreamEnd = Type.Object(
  {
    reason: StringEnum(STREAM_END_REASONS, { description: 'Why the server ended the stream.' }),
    detail: Type.String(),
  },
  { $id: 'StreamEnd', additionalProperties: false },
)

export const STREAM_WAIT_MAX_SECONDS = 30
export const STREAM_LIMIT_MAX = 500
export const STREAM_LIMIT_DEFAULT = 100

/** Query parameters the pollable streams and the SSE stream share. */
export const StreamQueryFields = {
  cursor: Type.Optional(
    // 12 KiB (about 200 workspaces of positions) keeps a request that carries it inside the 16 KiB
    // Node allows for the request line and headers together.
    CursorParam(
      12_288,
      'A `nextCursor` (or an SSE event id) to resume after. Without it, the stream starts at `from`.',
    ),
  ),
  from: Type.Optional(
    StringEnum(['start', 'now'] as const, {
      default: 'start',
      description:
        'Without a cursor: `start` replays the oldest retained event onwards, `now` only what happens next.',
    }),
  ),
  kinds: Type.Optional(
    Type.String({
      pattern: `^${KIND}(,${KIND})*$`,
      maxLength: 2000,
      description:
        'Comma-separated event kinds to receive, e.g. `task.created,task.updated`; all when absent.',
    }),
  ),
}

export const PollQueryFields = {
  ...StreamQueryFields,
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: STREAM_LIMIT_MAX,
      default: STREAM_LIMIT_DEFAULT,
      description: `Most events per response (default ${STREAM_LIMIT_DEFAULT}, max ${STREAM_LIMIT_MAX}).`,
    }),
  ),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: STREAM_WAIT_MAX_SECONDS,
      default: 0,
      description: `Long-poll: when nothing is new, hold the request up to this many seconds (max ${STREAM_WAIT_MAX_SECONDS}) until something is.`,
    }),
  ),
}

/** The `stream-event` payload of a stored event: exactly the fields of `StreamEvent`. */
export function streamEventOf(e: StoredEvent): Static<typeof StreamEvent> {
  return {
    id: e.id,
    orgId: e.orgId,
    seq: e.seq,
    kind: e.kind,
    actorId: e.actorId,
    resourceType: e.resourceType,
    resourceId: e.resourceId,
    teamId: e.teamId ?? null,
    data: e.data,
    createdAt: e.createdAt,
  }
}

export function parseKinds(kinds: string | undefined): string[] | undefined {
  return kinds ? [...new Set(kinds.split(','))] : undefined
}

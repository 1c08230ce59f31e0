import type { OrgId } from '../kernel/ids.ts'
import type { CursorCodec } from '../kernel/pagination.ts'
import { ProblemError } from '../kernel/problems.ts'

/** Per-org positions: the last sequence the reader has passed in each workspace's log. */
export type Positions = ReadonlyMap<OrgId, number>

const SCOPE = 'stream'

/**
 * Stream cursors are signed like list cursors and carry one position per workspace, so the same
 * cursor works on the hub stream, the SSE stream and (for the workspaces it names) an org stream.
 */
export function encodeStreamCursor(codec: CursorCodec, positions: Positions): string {
  return codec.seal(SCOPE, Object.fromEntries(positions))
}

export function decodeStreamCursor(codec: CursorCodec, cursor: string): Map<OrgId, number> {
  const value = codec.open(SCOPE, cursor)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw notAStreamCursor()
  const positions = new Map<OrgId, number>()
  for (const [orgId, seq] of Object.entries(value)) {
    if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq < 0) throw notAStreamCursor()
    positions.set(orgId as OrgId, seq)
  }
  return positions
}

function notAStreamCursor(): ProblemError {
  const detail = 'The cursor is not a stream cursor.'
  return new ProblemError('invalid_cursor', detail, {
    errors: [{ pointer: '/query/cursor', message: detail }],
  })
}

export function cursorExpired(orgId: OrgId, oldest: number): ProblemError {
  return new ProblemError(
    'cursor_expired',
    'The cursor points before the oldest retained event; start again without a cursor (`from=start` or `from=now`).',
    { extensions: { orgId, oldestSeq: oldest } },
  )
}

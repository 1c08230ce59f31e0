import { currentOrg } from '../kernel/context.ts'
import type { ExportId, OrgId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound } from '../kernel/problems.ts'
import type { Storage } from '../kernel/storage.ts'
import { SECTIONS } from './export-format.ts'
import type { Export } from './schemas.ts'
import type { ExportRecord } from './storage.ts'

const publicExport = ({ checkpoint: _c, chunks: _n, ...e }: ExportRecord): Export => e

function emitExport(ctx: OperationContext, kind: string, record: ExportRecord): void {
  ctx.emit({ kind, resourceType: 'export', resourceId: record.id, data: { export: publicExport(record) } })
}

/** Queues an export of the whole workspace; the background job writes it (`runTransfers`). */
export async function createExport(ctx: OperationContext): Promise<Export> {
  const orgId = currentOrg(ctx).id
  const record: ExportRecord = {
    id: newId('ExportId'),
    orgId,
    status: 'queued',
    counts: {},
    bytes: 0,
    error: null,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    completedAt: null,
    checkpoint: { section: 0, after: null },
    chunks: 0,
  }
  await ctx.store.exports.insert(record)
  emitExport(ctx, 'export.created', record)
  return publicExport(record)
}

export async function requireExport(ctx: OperationContext, id: ExportId): Promise<ExportRecord> {
  const record = await ctx.store.exports.get(currentOrg(ctx).id, id)
  if (!record) throw notFound('Export')
  return record
}

export async function getExport(ctx: OperationContext, id: ExportId): Promise<Export> {
  return publicExport(await requireExport(ctx, id))
}

export function listExports(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Export>> {
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['exports.list', orgId],
    query,
    sort: 'id',
    direction: 'desc',
    keyOf: (e: Export) => e.id,
    fetch: (page) => ctx.store.exports.list(orgId, page),
  })
}

/**
 * One step of an export: the next page of its current section, appended as one chunk with the
 * new checkpoint. A step that loses a race with another worker writes nothing; a crash between
 * steps loses nothing, since the chunk and the checkpoint commit together.
 */
export async function exportStep(
  ctx: OperationContext,
  orgId: OrgId,
  id: ExportId,
  batch: number,
): Promise<boolean> {
  const record = await ctx.store.exports.get(orgId, id)
  if (!record || record.status === 'completed' || record.status === 'failed') return false
  const { section, after } = record.checkpoint
  const current = SECTIONS[section]!
  const page = await current.read(ctx, orgId, after, batch)
  const lines = page.flatMap((p) =>
    p.record ? [`${JSON.stringify({ type: current.type, ...p.record })}\n`] : [],
  )
  const counts = { ...record.counts }
  if (lines.length) counts[current.type] = (counts[current.type] ?? 0) + lines.length
  const sectionDone = page.length < batch
  const finished = sectionDone && section === SECTIONS.length - 1
  const chunk = lines.join('')
  const next: ExportRecord = {
    ...record,
    status: finished ? 'completed' : 'running',
    checkpoint: sectionDone
      ? { section: section + 1, after: null }
      : { section, after: page.at(-1)!.position },
    counts,
    bytes: record.bytes + Buffer.byteLength(chunk),
    updatedAt: ctx.now,
    completedAt: finished ? ctx.now : null,
  }
  const moved = await ctx.store.exports.advance(orgId, id, record.chunks, chunk || null, next)
  if (!moved) return false
  if (finished) emitExport(ctx, 'export.completed', next)
  return !finished
}

/** The NDJSON of a completed export, a few chunks per read. */
export async function* exportContent(
  storage: Storage,
  record: Pick<Export, 'orgId' | 'id'>,
): AsyncIterable<string> {
  let after = -1
  for (;;) {
    const chunks = await storage.read((s) => s.exports.chunks(record.orgId, record.id, after, 20))
    for (const c of chunks) yield c.content
    if (chunks.length < 20) return
    after = chunks.at(-1)!.seq
  }
}

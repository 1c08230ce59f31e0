import { createHash } from 'node:crypto'
import type { ImportId, MemberId, OrgId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { currentOrg } from '../orgs/service.ts'
import { requireTeam } from '../teams/service.ts'
import { parseTaskCsv } from './csv.ts'
import { applyCsvRow, applyExportLine, createResolver, RowError, type RowOutcome } from './import-rows.ts'
import type { Import, ImportError, ImportFormat } from './schemas.ts'
import type { ImportRecord } from './storage.ts'

const publicImport = ({ content: _c, contentHash: _h, ...i }: ImportRecord): Import => i

function emitImport(ctx: OperationContext, kind: string, record: Import): void {
  ctx.emit({ kind, resourceType: 'import', resourceId: record.id, data: { import: record } })
}

/** The non-blank lines of an NDJSON source: its rows. */
const ndjsonLines = (content: string) => content.split(/\r?\n/).filter((l) => l.trim() !== '')

/**
 * Checks the source and queues the import; the background job works through it (`runTransfers`).
 * A CSV must parse and name its columns, and needs an active team; an NDJSON source is read line by
 * line later, so one bad line is one row error.
 */
export async function createImport(
  ctx: OperationContext,
  input: { format: ImportFormat; content: string; teamId?: TeamId },
): Promise<Import> {
  const orgId = currentOrg(ctx).id
  let totalRows: number
  if (input.format === 'csv') {
    if (!input.teamId)
      throw new ProblemError('rule_violated', 'A CSV import needs `teamId`: the team its tasks go to.', {
        errors: [{ pointer: '/body/teamId', message: 'Required for csv' }],
      })
    const team = await requireTeam(ctx, input.teamId)
    if (team.archivedAt) throw new ProblemError('archived', 'The team is archived; restore it first.')
    totalRows = parseTaskCsv(input.content).length
  } else {
    if (input.teamId)
      throw new ProblemError('rule_violated', 'An NDJSON import brings its own teams; leave `teamId` out.', {
        errors: [{ pointer: '/body/teamId', message: 'Only for csv' }],
      })
    totalRows = ndjsonLines(input.content).length
  }
  const record: ImportRecord = {
    id: newId('ImportId'),
    orgId,
    format: input.format,
    teamId: input.teamId ?? null,
    status: 'queued',
    totalRows,
    processedRows: 0,
    createdCount: 0,
    skippedCount: 0,
    errorCount: 0,
    error: null,
    createdBy: ctx.actor!.id,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    completedAt: null,
    content: input.content,
    contentHash: createHash('sha256').update(input.content).digest('hex'),
  }
  await ctx.store.imports.insert(record)
  const shown = publicImport(record)
  emitImport(ctx, 'import.created', shown)
  return shown
}

export async function requireImport(ctx: OperationContext, id: ImportId): Promise<ImportRecord> {
  const record = await ctx.store.imports.get(currentOrg(ctx).id, id)
  if (!record) throw notFound('Import')
  return record
}

export async function getImport(ctx: OperationContext, id: ImportId): Promise<Import> {
  return publicImport(await requireImport(ctx, id))
}

export function listImports(
  ctx: OperationContext,
  query: { cursor?: string; limit?: number },
): Promise<Page<Import>> {
  const orgId = currentOrg(ctx).id
  return readPage(ctx, {
    scope: ['imports.list', orgId],
    query,
    sort: 'id',
    direction: 'desc',
    keyOf: (i: Import) => i.id,
    fetch: (page) => ctx.store.imports.list(orgId, page),
  })
}

export async function listImportErrors(
  ctx: OperationContext,
  id: ImportId,
  query: { cursor?: string; limit?: number },
): Promise<Page<ImportError>> {
  const orgId = currentOrg(ctx).id
  await requireImport(ctx, id)
  const page = await readPage(ctx, {
    scope: ['imports.errors.list', orgId, id],
    query,
    sort: 'id',
    direction: 'asc',
    keyOf: (e: ImportError & { id: string }) => e.id,
    fetch: (p) => ctx.store.imports.errors(orgId, id, p),
  })
  return { data: page.data.map(({ id: _id, ...e }) => e), nextCursor: page.nextCursor }
}

/**
 * One step of an import: up to `batch` rows from the checkpoint, each created or refused with a
 * row error, committed with the new checkpoint. The rows run as the member who started the import,
 * with their rights now; if they can no longer manage the workspace the import fails.
 */
export async function importStep(
  ctx: OperationContext,
  orgId: OrgId,
  id: ImportId,
  batch: number,
): Promise<boolean> {
  const record = await ctx.store.imports.get(orgId, id)
  if (!record || record.status === 'completed' || record.status === 'failed') return false
  const starter = await ctx.store.members.get(orgId, record.createdBy as MemberId)
  const org = ctx.org!
  const base = {
    status: 'running' as const,
    processedRows: record.processedRows,
    createdCount: record.createdCount,
    skippedCount: record.skippedCount,
    errorCount: record.errorCount,
    updatedAt: ctx.now,
    completedAt: null,
    error: null,
  }
  if (!starter || starter.status !== 'active' || (starter.role !== 'owner' && starter.role !== 'admin')) {
    const failed = {
      ...base,
      status: 'failed' as const,
      completedAt: ctx.now,
      error: 'The member who started the import can no longer manage the workspace.',
    }
    if (await ctx.store.imports.advance(orgId, id, record.processedRows, failed))
      emitImport(ctx, 'import.failed', { ...publicImport(record), ...failed })
    return false
  }
  const as = ctx.within(org, {
    id: starter.id,
    kind: 'person',
    orgId,
    role: starter.role,
    userId: starter.userId,
    name: starter.name,
  })
  const resolver = createResolver(as, orgId)
  const from = record.processedRows
  const next = { ...base }
  const rows: Array<() => Promise<RowOutcome>> =
    record.format === 'csv'
      ? parseTaskCsv(record.content)
          .slice(from, from + batch)
          .map(
            (row, i) => () =>
              applyCsvRow(
                as,
                orgId,
                record.teamId as TeamId,
                row,
                `csv:${record.contentHash}:${from + i + 1}`,
                resolver,
              ),
          )
      : ndjsonLines(record.content)
          .slice(from, from + batch)
          .map((line) => () => {
            let parsed: unknown
            try {
              parsed = JSON.parse(line)
            } catch {
              throw new RowError('The line is not JSON.')
            }
            if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
              throw new RowError('The line is not a JSON object.')
            return applyExportLine(as, orgId, parsed as Record<string, unknown>, resolver)
          })
  for (const [i, apply] of rows.entries()) {
    const row = from + i + 1
    try {
      if ((await apply()) === 'created') next.createdCount++
      else next.skippedCount++
    } catch (error) {
      if (!(error instanceof RowError) && !(error instanceof ProblemError)) throw error
      next.errorCount++
      await ctx.store.imports.addError(orgId, id, {
        row,
        field: error instanceof RowError ? error.field : null,
        message: error.message,
      })
    }
    next.processedRows = row
  }
  const finished = next.processedRows >= record.totalRows
  const patch = finished ? { ...next, status: 'completed' as const, completedAt: ctx.now } : next
  // Moved by another worker meanwhile: throw, so this step's writes roll back.
  if (!(await ctx.store.imports.advance(orgId, id, from, patch))) throw new StepLost()
  if (finished) emitImport(ctx, 'import.completed', { ...publicImport(record), ...patch })
  return !finished
}

/** Another worker ran the same step first; the transaction rolls back and nothing is doubled. */
export class StepLost extends Error {}

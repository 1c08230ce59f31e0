import { createHash } from 'node:crypto'
import { currentOrg } from '../kernel/context.ts'
import type { ImportId, TeamId } from '../kernel/ids.ts'
import { newId } from '../kernel/ids.ts'
import type { OperationContext } from '../kernel/operation.ts'
import type { Page } from '../kernel/pagination.ts'
import { readPage } from '../kernel/paging.ts'
import { notFound, ProblemError } from '../kernel/problems.ts'
import { requireTeam } from '../teams/service.ts'
import { checkTaskCsv } from './csv.ts'
import type { Import, ImportError, ImportFormat } from './schemas.ts'
import { csvShape, invalidSource, jsonItemCount, ndjsonLines } from './sources.ts'
import type { ImportRecord } from './storage.ts'
import { TOOL_READERS } from './tool-formats.ts'

const publicImport = ({ content: _c, contentHash: _h, ...i }: ImportRecord): Import => i

export function emitImport(ctx: OperationContext, kind: string, record: Import): void {
  ctx.emit({ kind, resourceType: 'import', resourceId: record.id, data: { import: record } })
}

/** Rows in the source, checked enough that the job can read it: a bad file is refused now, not queued. */
function countRows(format: ImportFormat, content: string): number {
  if (format === 'csv') return checkTaskCsv(content)
  if (format === 'ndjson') return ndjsonLines(content).length
  const source = TOOL_READERS[format].source
  if (source.kind === 'json') return jsonItemCount(content, source.path, source.shape)
  const { header, rows } = csvShape(content)
  const missing = source.required.filter((c) => !header.includes(c))
  if (missing.length)
    throw invalidSource(
      `This is not ${source.tool}'s CSV export: it lacks the column${missing.length > 1 ? 's' : ''} ${missing.map((c) => `\`${c}\``).join(', ')}.`,
    )
  return rows
}

const bodyError = (field: string, message: string, detail: string) =>
  new ProblemError('rule_violated', message, { errors: [{ pointer: `/body/${field}`, message: detail }] })

/**
 * Checks the source and queues the import; the background job works through it (`runTransfers`).
 * A CSV or another tool's export must parse and has a team; an NDJSON source is read line by line
 * later, so one bad line is one row error.
 */
export async function createImport(
  ctx: OperationContext,
  input: { format: ImportFormat; content: string; teamId?: TeamId; dryRun?: boolean; sourceUrl?: string },
): Promise<Import> {
  const orgId = currentOrg(ctx).id
  if (input.format === 'ndjson') {
    if (input.teamId)
      throw bodyError('teamId', 'An NDJSON import brings its own teams; leave `teamId` out.', 'Only for csv')
    if (input.dryRun)
      throw bodyError(
        'dryRun',
        'An NDJSON export is replayed in order, each line on the records of the lines before: it has no dry run.',
        'Not for ndjson',
      )
  } else {
    if (!input.teamId)
      throw bodyError(
        'teamId',
        `A ${input.format} import needs \`teamId\`: the team its tasks go to.`,
        `Required for ${input.format}`,
      )
    const team = await requireTeam(ctx, input.teamId)
    if (team.archivedAt) throw new ProblemError('archived', 'The team is archived; restore it first.')
  }
  if (input.sourceUrl !== undefined && input.format !== 'linear_csv' && input.format !== 'linear_json')
    throw bodyError(
      'sourceUrl',
      'Only a Linear import takes `sourceUrl`; the other formats carry their URLs.',
      'Only for linear_csv and linear_json',
    )
  const totalRows = countRows(input.format, input.content)
  const record: ImportRecord = {
    id: newId('ImportId'),
    orgId,
    format: input.format,
    teamId: input.teamId ?? null,
    status: 'queued',
    dryRun: input.dryRun ?? false,
    sourceUrl: input.sourceUrl ?? null,
    totalRows,
    processedRows: 0,
    linkedRows: 0,
    createdCount: 0,
    updatedCount: 0,
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

/** Stops a queued or running import after the row in progress; what it imported stays. */
export async function cancelImport(ctx: OperationContext, id: ImportId): Promise<Import> {
  const record = await requireImport(ctx, id)
  if (record.status !== 'queued' && record.status !== 'running')
    throw new ProblemError(
      'conflict',
      `The import is ${record.status}; only a queued or running import can be canceled.`,
    )
  if (!(await ctx.store.imports.cancel(record.orgId, record.id, ctx.now)))
    throw new ProblemError('conflict', 'The import finished meanwhile; it cannot be canceled.')
  const canceled = publicImport((await ctx.store.imports.get(record.orgId, record.id))!)
  emitImport(ctx, 'import.canceled', canceled)
  return canceled
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

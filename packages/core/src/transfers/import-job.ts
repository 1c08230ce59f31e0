import type { ImportId, MemberId, OrgId, TeamId } from '../kernel/ids.ts'
import type { OperationContext, SystemRunner } from '../kernel/operation.ts'
import { ProblemError } from '../kernel/problems.ts'
import type { Storage } from '../kernel/storage.ts'
import { taskCsvRow } from './csv.ts'
import { applyCsvRow, applyExportLine, createResolver, type RowResult } from './import-rows.ts'
import { emitImport } from './imports.ts'
import { RowError } from './row-error.ts'
import { type Import, TOOL_FORMATS, type ToolFormat } from './schemas.ts'
import { type SourceRow, sourceRows } from './sources.ts'
import type { ImportProgress, ImportRecord } from './storage.ts'
import { toolIssue } from './tool-formats.ts'
import { applyToolIssue, linkToolIssue } from './tool-rows.ts'

/** Another worker moved the checkpoint first; this row's transaction rolls back and nothing is doubled. */
export class StepLost extends Error {}

/** A dry run's row, done and then rolled back: what it would have been is settled separately. */
class RolledBack extends Error {
  constructor(
    readonly result: RowResult,
    readonly seenKey: string | null,
  ) {
    super('dry run')
  }
}

/** Progress events every this many rows, and at the end of each pass. */
const PROGRESS_EVERY = 50

const isTool = (format: string): format is ToolFormat => (TOOL_FORMATS as readonly string[]).includes(format)

const publicImport = ({ content: _c, contentHash: _h, ...i }: ImportRecord): Import => i

type Position = Pick<Import, 'processedRows' | 'linkedRows'>
type Settlement =
  | { kind: 'row'; result: RowResult; seenKey: string | null }
  | { kind: 'refused'; message: string; field: string | null }

/**
 * The member who started the import, as an actor with their rights now; null (and the import
 * failed) when they can no longer manage the workspace.
 */
async function starterContext(ctx: OperationContext, record: ImportRecord): Promise<OperationContext | null> {
  const starter = await ctx.store.members.get(record.orgId, record.createdBy as MemberId)
  if (starter && starter.status === 'active' && (starter.role === 'owner' || starter.role === 'admin'))
    return ctx.within(ctx.org!, {
      id: starter.id,
      kind: 'person',
      orgId: record.orgId,
      role: starter.role,
      userId: starter.userId,
      name: starter.name,
    })
  const failed = {
    ...progressOf(record),
    status: 'failed' as const,
    updatedAt: ctx.now,
    completedAt: ctx.now,
    error: 'The member who started the import can no longer manage the workspace.',
  }
  if (await ctx.store.imports.advance(record.orgId, record.id, record, failed))
    emitImport(ctx, 'import.failed', { ...publicImport(record), ...failed })
  return null
}

const progressOf = (r: Import): ImportProgress => ({
  status: r.status,
  processedRows: r.processedRows,
  linkedRows: r.linkedRows,
  createdCount: r.createdCount,
  updatedCount: r.updatedCount,
  skippedCount: r.skippedCount,
  errorCount: r.errorCount,
  updatedAt: r.updatedAt,
  completedAt: r.completedAt,
  error: r.error,
})

/** What one source row does: creates or updates its record (first pass) or links it (second pass). */
async function rowWork(
  as: OperationContext,
  record: ImportRecord,
  linking: boolean,
  row: SourceRow,
): Promise<{ result: RowResult; seenKey: string | null }> {
  const orgId = record.orgId
  const resolver = createResolver(as, orgId)
  if (isTool(record.format)) {
    if (linking) {
      // A row the first pass refused was reported there; the second pass has nothing to link for it.
      let issue: ReturnType<typeof toolIssue>
      try {
        issue = toolIssue(record.format, row.data, record.sourceUrl)
      } catch (error) {
        if (error instanceof RowError) return { result: { outcome: 'skipped', notes: [] }, seenKey: null }
        throw error
      }
      // A second row with the same key was refused: the first row's links stand.
      const first = await as.store.imports.mapping(orgId, `seen:${record.id}:${issue.sourceKey}`)
      if (first?.id !== String(row.row)) return { result: { outcome: 'skipped', notes: [] }, seenKey: null }
      return { result: { outcome: 'skipped', notes: await linkToolIssue(as, orgId, issue) }, seenKey: null }
    }
    const issue = toolIssue(record.format, row.data, record.sourceUrl)
    // The same key twice in one file: the first row wins, the others are refused.
    const seenKey = `seen:${record.id}:${issue.sourceKey}`
    const seen = await as.store.imports.mapping(orgId, seenKey)
    if (seen && seen.id !== String(row.row))
      throw new RowError(`Row ${seen.id} of this file has the same key, ${issue.key}.`, 'key')
    const result = await applyToolIssue(as, orgId, record.teamId as TeamId, issue, resolver, {
      dryRun: record.dryRun,
    })
    return { result, seenKey: issue.skip ? null : seenKey }
  }
  if (record.format === 'csv') {
    const outcome = await applyCsvRow(
      as,
      orgId,
      record.teamId as TeamId,
      taskCsvRow(row.data as Record<string, string>),
      `csv:${record.contentHash}:${row.row}`,
      resolver,
    )
    return { result: { outcome, notes: [] }, seenKey: null }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(row.data as string)
  } catch {
    throw new RowError('The line is not JSON.')
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new RowError('The line is not a JSON object.')
  const outcome = await applyExportLine(as, orgId, parsed as Record<string, unknown>, resolver)
  return { result: { outcome, notes: [] }, seenKey: null }
}

/** Records what became of a row and moves the checkpoint past it, in the row's transaction or one of its own. */
async function settle(
  ctx: OperationContext,
  record: ImportRecord,
  at: Position,
  linking: boolean,
  row: SourceRow,
  settlement: Settlement,
): Promise<Position> {
  const current = await ctx.store.imports.get(record.orgId, record.id)
  if (!current || current.processedRows !== at.processedRows || current.linkedRows !== at.linkedRows)
    throw new StepLost()
  const next = { ...progressOf(current), status: 'running' as const, updatedAt: ctx.now }
  if (linking) next.linkedRows++
  else next.processedRows++
  const notes = settlement.kind === 'row' ? settlement.result.notes : [settlement.message]
  if (settlement.kind === 'refused') next.errorCount++
  else if (!linking) {
    const outcome = settlement.result.outcome
    if (outcome === 'created') next.createdCount++
    else if (outcome === 'updated') next.updatedCount++
    else next.skippedCount++
    if (settlement.seenKey)
      await ctx.store.imports.map(record.orgId, settlement.seenKey, { type: 'row', id: String(row.row) })
  }
  if (notes.length)
    await ctx.store.imports.addError(record.orgId, record.id, {
      row: row.row,
      line: row.line,
      field: settlement.kind === 'refused' ? settlement.field : null,
      message: notes.join(' '),
      refused: settlement.kind === 'refused',
    })
  if (!(await ctx.store.imports.advance(record.orgId, record.id, at, next))) throw new StepLost()
  const done = linking ? next.linkedRows : next.processedRows
  if (done % PROGRESS_EVERY === 0 || done === record.totalRows)
    emitImport(ctx, 'import.progressed', { ...publicImport(current), ...next })
  return { processedRows: next.processedRows, linkedRows: next.linkedRows }
}

/** One row in a transaction of its own: all of it is written, or (refused) none of it. */
async function runRow(
  run: SystemRunner,
  record: ImportRecord,
  at: Position,
  linking: boolean,
  row: SourceRow,
): Promise<Position | null> {
  const orgId = record.orgId
  try {
    return await run(orgId, async (ctx) => {
      const as = await starterContext(ctx, record)
      if (!as) return null
      const { result, seenKey } = await rowWork(as, record, linking, row)
      if (record.dryRun) throw new RolledBack(result, seenKey)
      return settle(ctx, record, at, linking, row, { kind: 'row', result, seenKey })
    })
  } catch (error) {
    let settlement: Settlement
    if (error instanceof RolledBack) {
      settlement = { kind: 'row', result: error.result, seenKey: error.seenKey }
    } else if (error instanceof RowError || error instanceof ProblemError)
      settlement = {
        kind: 'refused',
        message: error.message,
        field: error instanceof RowError ? error.field : null,
      }
    else throw error
    return run(orgId, (ctx) => settle(ctx, record, at, linking, row, settlement))
  }
}

/**
 * Up to `batch` rows of one import from its checkpoint, each in its own transaction; then, once
 * both passes are through, the import is completed. False when nothing is left to do (finished,
 * canceled, failed), so the job moves on.
 */
export async function importBatch(
  storage: Storage,
  run: SystemRunner,
  orgId: OrgId,
  id: ImportId,
  batch: number,
): Promise<boolean> {
  const record = await storage.read((s) => s.imports.get(orgId, id))
  if (!record || (record.status !== 'queued' && record.status !== 'running')) return false
  const linking = record.processedRows >= record.totalRows
  const needsLinks = isTool(record.format) && !record.dryRun
  if (linking && (!needsLinks || record.linkedRows >= record.totalRows)) {
    await run(orgId, (ctx) => complete(ctx, record))
    return false
  }
  let at: Position = { processedRows: record.processedRows, linkedRows: record.linkedRows }
  let done = 0
  for await (const row of sourceRows(
    record.format,
    record.content,
    linking ? at.linkedRows : at.processedRows,
  )) {
    const next = await runRow(run, record, at, linking, row)
    if (!next) return false
    at = next
    if (++done >= batch) break
  }
  // The source ended before `totalRows` (it cannot, as the count was taken from the same parse): close the pass.
  if (done === 0)
    await run(orgId, async (ctx) => {
      const patch = { ...progressOf(record), updatedAt: ctx.now }
      if (linking) patch.linkedRows = record.totalRows
      else patch.processedRows = record.totalRows
      if (!(await ctx.store.imports.advance(orgId, id, record, patch))) throw new StepLost()
    })
  return true
}

async function complete(ctx: OperationContext, record: ImportRecord): Promise<void> {
  const patch = {
    ...progressOf(record),
    status: 'completed' as const,
    updatedAt: ctx.now,
    completedAt: ctx.now,
  }
  if (!(await ctx.store.imports.advance(record.orgId, record.id, record, patch))) throw new StepLost()
  emitImport(ctx, 'import.completed', { ...publicImport(record), ...patch })
}

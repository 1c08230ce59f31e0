import type { ActorId, Export, ExportId, Import, ImportId, OrgId, TeamId } from '@workgraph/core'
import type {
  ExportCheckpoint,
  ExportRecord,
  ExportRepo,
  ImportRecord,
  ImportRepo,
} from '@workgraph/core/storage'
import type { Kysely, Selectable } from 'kysely'
import { keysetPage } from '../keyset.ts'
import { int, iso, isoOrNull, json } from '../normalize.ts'
import type { Database } from '../schema.ts'

const UNFINISHED = ['queued', 'running']

function toExport(r: Selectable<Database['exports']>): ExportRecord {
  return {
    id: r.id as ExportId,
    orgId: r.orgId as OrgId,
    status: r.status as Export['status'],
    counts: json<Record<string, number>>(r.counts),
    bytes: int(r.bytes),
    error: r.error,
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    completedAt: isoOrNull(r.completedAt),
    checkpoint: json<ExportCheckpoint>(r.checkpoint),
    chunks: int(r.chunks),
  }
}

export function exportRepo(db: Kysely<Database>): ExportRepo {
  return {
    async insert({ checkpoint, counts, ...rest }) {
      await db
        .insertInto('exports')
        .values({ ...rest, checkpoint: JSON.stringify(checkpoint), counts: JSON.stringify(counts) })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('exports')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toExport(row) : null
    },
    async list(orgId, page) {
      const rows = await keysetPage(db.selectFrom('exports').selectAll().where('orgId', '=', orgId), page, {
        sort: 'id',
        id: 'id',
      }).execute()
      return rows.map((r) => {
        const { checkpoint: _c, chunks: _n, ...e } = toExport(r)
        return e
      })
    },
    async pending(limit) {
      const rows = await db
        .selectFrom('exports')
        .select(['orgId', 'id'])
        .where('status', 'in', UNFINISHED)
        .orderBy('createdAt')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, id: r.id as ExportId }))
    },
    async advance(orgId, id, expectedChunks, chunk, patch) {
      // The compare-and-set on `chunks` makes the step count the lock: a second worker's step on
      // the same position updates nothing and writes no chunk.
      const result = await db
        .updateTable('exports')
        .set({
          status: patch.status,
          checkpoint: JSON.stringify(patch.checkpoint),
          counts: JSON.stringify(patch.counts),
          bytes: patch.bytes,
          updatedAt: patch.updatedAt,
          completedAt: patch.completedAt,
          error: patch.error,
          chunks: expectedChunks + 1,
        })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('chunks', '=', expectedChunks)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 0) return false
      if (chunk !== null)
        await db
          .insertInto('exportChunks')
          .values({ orgId, exportId: id, seq: expectedChunks + 1, content: chunk })
          .execute()
      return true
    },
    async chunks(orgId, id, afterSeq, limit) {
      const rows = await db
        .selectFrom('exportChunks')
        .select(['seq', 'content'])
        .where('orgId', '=', orgId)
        .where('exportId', '=', id)
        .where('seq', '>', afterSeq)
        .orderBy('seq')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ seq: int(r.seq), content: r.content }))
    },
  }
}

function toImport(r: Selectable<Database['imports']>): ImportRecord {
  return {
    id: r.id as ImportId,
    orgId: r.orgId as OrgId,
    format: r.format as Import['format'],
    teamId: r.teamId as TeamId | null,
    status: r.status as Import['status'],
    totalRows: int(r.totalRows),
    processedRows: int(r.processedRows),
    createdCount: int(r.createdCount),
    skippedCount: int(r.skippedCount),
    errorCount: int(r.errorCount),
    error: r.error,
    createdBy: r.createdBy as ActorId,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    completedAt: isoOrNull(r.completedAt),
    dryRun: int(r.dryRun) === 1,
    sourceUrl: r.sourceUrl,
    linkedRows: int(r.linkedRows),
    updatedCount: int(r.updatedCount),
    content: r.content,
    contentHash: r.contentHash,
  }
}

/** Row numbers as sortable ids: the errors page in row order on both databases. */
const rowKey = (row: number) => String(row).padStart(10, '0')

export function importRepo(db: Kysely<Database>): ImportRepo {
  return {
    async insert({ dryRun, ...record }) {
      await db
        .insertInto('imports')
        .values({ ...record, dryRun: dryRun ? 1 : 0 })
        .execute()
    },
    async get(orgId, id) {
      const row = await db
        .selectFrom('imports')
        .selectAll()
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .executeTakeFirst()
      return row ? toImport(row) : null
    },
    async list(orgId, page) {
      const rows = await keysetPage(db.selectFrom('imports').selectAll().where('orgId', '=', orgId), page, {
        sort: 'id',
        id: 'id',
      }).execute()
      return rows.map((r) => {
        const { content: _c, contentHash: _h, ...i } = toImport(r)
        return i
      })
    },
    async pending(limit) {
      const rows = await db
        .selectFrom('imports')
        .select(['orgId', 'id'])
        .where('status', 'in', UNFINISHED)
        .orderBy('createdAt')
        .orderBy('id')
        .limit(limit)
        .execute()
      return rows.map((r) => ({ orgId: r.orgId as OrgId, id: r.id as ImportId }))
    },
    async advance(orgId, id, expected, patch) {
      // The compare-and-set on the checkpoint is the lock: a second worker's row updates nothing.
      const result = await db
        .updateTable('imports')
        .set(patch)
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('processedRows', '=', expected.processedRows)
        .where('linkedRows', '=', expected.linkedRows)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async cancel(orgId, id, at) {
      const result = await db
        .updateTable('imports')
        .set({ status: 'canceled', updatedAt: at, completedAt: at })
        .where('orgId', '=', orgId)
        .where('id', '=', id)
        .where('status', 'in', UNFINISHED)
        .executeTakeFirst()
      return Number(result.numUpdatedRows) > 0
    },
    async addError(orgId, id, error) {
      const earlier = await db
        .selectFrom('importErrors')
        .select(['message', 'refused'])
        .where('orgId', '=', orgId)
        .where('importId', '=', id)
        .where('row', '=', error.row)
        .executeTakeFirst()
      if (earlier) {
        await db
          .updateTable('importErrors')
          .set({
            message: `${earlier.message} ${error.message}`,
            refused: int(earlier.refused) === 1 || error.refused ? 1 : 0,
          })
          .where('orgId', '=', orgId)
          .where('importId', '=', id)
          .where('row', '=', error.row)
          .execute()
        return
      }
      await db
        .insertInto('importErrors')
        .values({
          orgId,
          importId: id,
          row: error.row,
          line: error.line,
          field: error.field,
          message: error.message,
          refused: error.refused ? 1 : 0,
        })
        .execute()
    },
    async errors(orgId, id, page) {
      const after = page.after ? Number(page.after.id) : 0
      const rows = await db
        .selectFrom('importErrors')
        .select(['row', 'line', 'field', 'message', 'refused'])
        .where('orgId', '=', orgId)
        .where('importId', '=', id)
        .where('row', '>', after)
        .orderBy('row')
        .limit(page.limit + 1)
        .execute()
      return rows.map((r) => ({
        id: rowKey(int(r.row)),
        row: int(r.row),
        line: r.line === null ? null : int(r.line),
        field: r.field,
        message: r.message,
        refused: int(r.refused) === 1,
      }))
    },
    async mapping(orgId, sourceKey) {
      const row = await db
        .selectFrom('importMappings')
        .select(['recordType', 'recordId'])
        .where('orgId', '=', orgId)
        .where('sourceKey', '=', sourceKey)
        .executeTakeFirst()
      return row ? { type: row.recordType, id: row.recordId } : null
    },
    async map(orgId, sourceKey, record) {
      await db
        .insertInto('importMappings')
        .values({ orgId, sourceKey, recordType: record.type, recordId: record.id })
        .execute()
    },
    async unmap(orgId, sourceKey) {
      await db
        .deleteFrom('importMappings')
        .where('orgId', '=', orgId)
        .where('sourceKey', '=', sourceKey)
        .execute()
    },
  }
}

import type { Generated } from 'kysely'
import type { BigIntColumn, JsonColumn, NullableTimestamp, Timestamp } from '../columns.ts'

/** Exports with their NDJSON chunks, imports with their row errors and source → record mappings. */
export interface TransfersTables {
  exports: {
    orgId: string
    id: string
    status: string
    checkpoint: JsonColumn
    counts: JsonColumn
    chunks: number
    bytes: BigIntColumn
    error: string | null
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
    completedAt: NullableTimestamp
  }
  exportChunks: {
    orgId: string
    exportId: string
    seq: number
    content: string
  }
  imports: {
    orgId: string
    id: string
    format: string
    teamId: string | null
    status: string
    content: string
    contentHash: string
    totalRows: number
    processedRows: number
    createdCount: number
    skippedCount: number
    errorCount: number
    error: string | null
    createdBy: string
    createdAt: Timestamp
    updatedAt: Timestamp
    completedAt: NullableTimestamp
    dryRun: Generated<number>
    updatedCount: Generated<number>
    linkedRows: Generated<number>
    sourceUrl: string | null
  }
  importErrors: {
    orgId: string
    importId: string
    row: number
    line: number | null
    field: string | null
    message: string
    refused: Generated<number>
  }
  importMappings: {
    orgId: string
    sourceKey: string
    recordType: string
    recordId: string
  }
}

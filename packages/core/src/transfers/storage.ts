import type { ExportId, ImportId, OrgId } from '../kernel/ids.ts'
import type { PageRequest } from '../kernel/pagination.ts'
import type { Export, Import, ImportError } from './schemas.ts'

/** Where the next export step resumes: a section of the format and the last key written in it. */
export interface ExportCheckpoint {
  section: number
  after: { value: string | number | null; id: string } | null
}

export type ExportRecord = Export & { checkpoint: ExportCheckpoint; chunks: number }

export interface ExportRepo {
  insert(record: ExportRecord): Promise<void>
  get(orgId: OrgId, id: ExportId): Promise<ExportRecord | null>
  /** Newest first. */
  list(orgId: OrgId, page: PageRequest<'id'>): Promise<Export[]>
  /** Unfinished exports of every org, oldest first: the job's queue. */
  pending(limit: number): Promise<Array<{ orgId: OrgId; id: ExportId }>>
  /**
   * Appends chunk `seq` and moves the checkpoint in one statement pair; false (nothing written)
   * when the export is no longer at `expectedChunks`, i.e. another worker got there first.
   */
  advance(
    orgId: OrgId,
    id: ExportId,
    expectedChunks: number,
    chunk: string | null,
    patch: Pick<
      ExportRecord,
      'status' | 'checkpoint' | 'counts' | 'bytes' | 'updatedAt' | 'completedAt' | 'error'
    >,
  ): Promise<boolean>
  /** The chunks in order, `limit` at a time, after chunk `afterSeq`. */
  chunks(
    orgId: OrgId,
    id: ExportId,
    afterSeq: number,
    limit: number,
  ): Promise<Array<{ seq: number; content: string }>>
}

export type ImportRecord = Import & { content: string; contentHash: string }

export interface ImportRepo {
  insert(record: ImportRecord): Promise<void>
  get(orgId: OrgId, id: ImportId): Promise<ImportRecord | null>
  list(orgId: OrgId, page: PageRequest<'id'>): Promise<Import[]>
  pending(limit: number): Promise<Array<{ orgId: OrgId; id: ImportId }>>
  /**
   * Moves the checkpoint; false when it is no longer at `expected` (another worker moved it) or the
   * import is no longer queued or running (canceled).
   */
  advance(
    orgId: OrgId,
    id: ImportId,
    expected: Pick<Import, 'processedRows' | 'linkedRows'>,
    patch: ImportProgress,
  ): Promise<boolean>
  /** Stops a queued or running import; false when it had already finished. */
  cancel(orgId: OrgId, id: ImportId, at: string): Promise<boolean>
  /** Records a row's error or note; a second one for the same row is added to its message. */
  addError(orgId: OrgId, id: ImportId, error: ImportError): Promise<void>
  /** By row. */
  errors(orgId: OrgId, id: ImportId, page: PageRequest<'id'>): Promise<Array<ImportError & { id: string }>>
  /** The record created earlier for a source record or row of this org, if any. */
  mapping(orgId: OrgId, sourceKey: string): Promise<{ type: string; id: string } | null>
  map(orgId: OrgId, sourceKey: string, record: { type: string; id: string }): Promise<void>
  /** Forgets a mapping whose record is gone, so the source record is imported anew. */
  unmap(orgId: OrgId, sourceKey: string): Promise<void>
}

/** What one step of an import writes: its status, checkpoint and counts. */
export type ImportProgress = Pick<
  Import,
  | 'status'
  | 'processedRows'
  | 'linkedRows'
  | 'createdCount'
  | 'updatedCount'
  | 'skippedCount'
  | 'errorCount'
  | 'updatedAt'
  | 'completedAt'
  | 'error'
>

declare module '../kernel/storage.ts' {
  interface Store {
    /** Workspace exports and their NDJSON chunks. */
    exports: ExportRepo
    /** Imports, their per-row errors and the source → created id mappings. */
    imports: ImportRepo
  }
}

import { type Static, Type } from '@sinclair/typebox'
import { ActorIdSchema } from '../access/schemas.ts'
import { IdSchema } from '../kernel/ids.ts'
import { Nullable, NullableTimestamp, StringEnum, Timestamp } from '../kernel/schema-types.ts'

export const TRANSFER_STATUSES = ['queued', 'running', 'completed', 'failed'] as const
export type TransferStatus = (typeof TRANSFER_STATUSES)[number]
const Status = StringEnum(TRANSFER_STATUSES, {
  $id: 'TransferStatus',
  description:
    '`queued` until the background job takes it, `running` while it works through it in steps, then ' +
    '`completed`, or `failed` with the reason in `error`.',
})

export const Export = Type.Object(
  {
    id: IdSchema('ExportId'),
    orgId: IdSchema('OrgId'),
    status: Status,
    counts: Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: 'Records written so far, by `type` (docs/exports-imports.md lists the types in order).',
    }),
    bytes: Type.Integer({ minimum: 0, description: 'Size of the NDJSON written so far.' }),
    error: Nullable(Type.String(), 'Why the export failed; null otherwise.'),
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the export was requested.'),
    updatedAt: Timestamp('When the job last wrote a chunk.'),
    completedAt: NullableTimestamp('When the last record was written; the content can be downloaded then.'),
  },
  {
    $id: 'Export',
    additionalProperties: false,
    description: 'An NDJSON export of the workspace, produced in resumable chunks by a background job.',
  },
)
export type Export = Static<typeof Export>

export const IMPORT_FORMATS = ['ndjson', 'csv'] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]

export const Import = Type.Object(
  {
    id: IdSchema('ImportId'),
    orgId: IdSchema('OrgId'),
    format: StringEnum(IMPORT_FORMATS, {
      description: '`ndjson`: a workgraph export; `csv`: tasks with a header row.',
    }),
    teamId: Nullable(IdSchema('TeamId'), 'The team CSV rows become tasks of; null for NDJSON.'),
    status: Status,
    totalRows: Type.Integer({ minimum: 0, description: 'Records (NDJSON lines, CSV rows) in the source.' }),
    processedRows: Type.Integer({ minimum: 0, description: 'Rows handled so far: the checkpoint.' }),
    createdCount: Type.Integer({ minimum: 0, description: 'Records created.' }),
    skippedCount: Type.Integer({
      minimum: 0,
      description:
        'Rows already imported before (same source record or CSV row), or matched to an existing record.',
    }),
    errorCount: Type.Integer({ minimum: 0, description: 'Rows refused; see `imports.errors.list`.' }),
    error: Nullable(Type.String(), 'Why the whole import stopped; null otherwise.'),
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the import was requested.'),
    updatedAt: Timestamp('When the job last processed a step.'),
    completedAt: NullableTimestamp('When the last row was handled.'),
  },
  {
    $id: 'Import',
    additionalProperties: false,
    description:
      'An import of a workgraph NDJSON export or a CSV of tasks, run in steps by a background job.',
  },
)
export type Import = Static<typeof Import>

export const ImportError = Type.Object(
  {
    row: Type.Integer({
      minimum: 1,
      description: 'The CSV data row (1 = first after the header) or NDJSON line.',
    }),
    field: Nullable(Type.String(), 'The column or field at fault, when one is.'),
    message: Type.String({ description: 'What was wrong; the row was skipped, the others imported.' }),
  },
  { $id: 'ImportError', additionalProperties: false, description: 'One row an import refused.' },
)
export type ImportError = Static<typeof ImportError>

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

export const IMPORT_FORMATS = [
  'ndjson',
  'csv',
  'linear_csv',
  'linear_json',
  'github_json',
  'jira_json',
  'jira_csv',
  'asana_json',
  'asana_csv',
] as const
export type ImportFormat = (typeof IMPORT_FORMATS)[number]
/** Formats exported by another tool: their records carry a source key, and go to one team. */
export const TOOL_FORMATS = [
  'linear_csv',
  'linear_json',
  'github_json',
  'jira_json',
  'jira_csv',
  'asana_json',
  'asana_csv',
] as const satisfies readonly ImportFormat[]
export type ToolFormat = (typeof TOOL_FORMATS)[number]

export const IMPORT_STATUSES = [...TRANSFER_STATUSES, 'canceled'] as const
export type ImportStatus = (typeof IMPORT_STATUSES)[number]

export const Import = Type.Object(
  {
    id: IdSchema('ImportId'),
    orgId: IdSchema('OrgId'),
    format: StringEnum(IMPORT_FORMATS, {
      description:
        '`ndjson`: a workgraph export; `csv`: tasks with a header row; `linear_csv`: the CSV of ' +
        "Linear's Export CSV; `linear_json`: the answer of Linear's GraphQL `issues` query; " +
        "`github_json`: the JSON array of GitHub's list-issues API (`GET /repos/{owner}/{repo}/issues`); " +
        "`jira_json`: the answer of Jira's REST search (`{ issues: [...] }`); `jira_csv`: Jira's " +
        "Export Excel CSV (all fields); `asana_json`: Asana's project export (`{ data: [...] }`); " +
        "`asana_csv`: Asana's CSV export. docs/importing.md maps each field.",
      examples: ['jira_json'],
    }),
    teamId: Nullable(IdSchema('TeamId'), 'The team the tasks go to; null for NDJSON.'),
    status: StringEnum(IMPORT_STATUSES, {
      $id: 'ImportStatus',
      description:
        '`queued` until the background job takes it, `running` while it works through it, then ' +
        '`completed`, `failed` with the reason in `error`, or `canceled` by `imports.cancel` (the ' +
        'records imported before stay).',
    }),
    dryRun: Type.Boolean({
      description:
        'A dry run reads and checks every row and counts what it would create, update and refuse, ' +
        'and writes nothing else: each row is rolled back.',
    }),
    sourceUrl: Nullable(
      Type.String({ format: 'uri' }),
      'For `linear_csv` and `linear_json`: the Linear workspace URL its keys link to (`https://linear.app/acme`), where the file gives no URL.',
    ),
    totalRows: Type.Integer({
      minimum: 0,
      description: 'Records (NDJSON lines, CSV rows, JSON items) in the source.',
    }),
    processedRows: Type.Integer({ minimum: 0, description: 'Rows handled so far: the checkpoint.' }),
    linkedRows: Type.Integer({
      minimum: 0,
      description:
        'For tool formats, a second pass once every record exists: rows whose parent and blocking ' +
        'links are written. Equals `totalRows` when done; 0 for the other formats and for dry runs.',
    }),
    createdCount: Type.Integer({
      minimum: 0,
      description: 'Records created (or, in a dry run, that would be).',
    }),
    updatedCount: Type.Integer({
      minimum: 0,
      description: 'Records imported before from the same source record and changed since: updated.',
    }),
    skippedCount: Type.Integer({
      minimum: 0,
      description:
        'Rows already imported before and unchanged (same source record or CSV row), or matched to an existing record.',
    }),
    errorCount: Type.Integer({ minimum: 0, description: 'Rows refused; see `imports.errors.list`.' }),
    error: Nullable(Type.String(), 'Why the whole import stopped; null otherwise.'),
    createdBy: ActorIdSchema,
    createdAt: Timestamp('When the import was requested.'),
    updatedAt: Timestamp('When the job last processed a step.'),
    completedAt: NullableTimestamp('When the last row was handled, or the import was canceled.'),
  },
  {
    $id: 'Import',
    additionalProperties: false,
    description:
      "An import of a workgraph NDJSON export, a CSV of tasks, or another tool's export, run by a background job.",
  },
)
export type Import = Static<typeof Import>

export const ImportError = Type.Object(
  {
    row: Type.Integer({
      minimum: 1,
      description: 'The CSV data row (1 = first after the header), NDJSON line or JSON array item.',
    }),
    line: Nullable(
      Type.Integer({ minimum: 1 }),
      "For CSV sources, the file's line where the row starts (quoted newlines make it differ from `row`).",
    ),
    refused: Type.Boolean({
      description:
        'True: the row was refused and nothing of it written. False: it was imported, with this note ' +
        '(an unknown person invited, a parent link that would close a cycle).',
    }),
    field: Nullable(Type.String(), 'The column or field at fault, when one is.'),
    message: Type.String({ description: 'What was wrong; the other rows are imported either way.' }),
  },
  {
    $id: 'ImportError',
    additionalProperties: false,
    description: 'One row an import refused, or imported with a note.',
  },
)
export type ImportError = Static<typeof ImportError>

import { type TProperties, Type } from '@sinclair/typebox'
import { type ExportId, IdSchema, type ImportId } from '../kernel/ids.ts'
import { type AnyOperation, declareOperation } from '../kernel/operation.ts'
import { PageQuery } from '../kernel/pagination.ts'
import { ProblemError } from '../kernel/problems.ts'
import { paramsOf } from '../kernel/resource.ts'
import { PageOf, StringEnum } from '../kernel/schema-types.ts'
import { exportExamples, importExamples } from './examples.ts'
import { EXPORT_TYPES } from './export-format.ts'
import { createExport, exportContent, getExport, listExports, requireExport } from './exports.ts'
import { cancelImport, createImport, getImport, listImportErrors, listImports } from './imports.ts'
import { Export, IMPORT_FORMATS, Import, ImportError } from './schemas.ts'

const TAG = 'Exports and imports'
const obj = (props: TProperties) => Type.Object(props, { additionalProperties: false })
const exportsPath = '/v1/orgs/{orgId}/exports'
const exportPath = `${exportsPath}/{exportId}`
const contentPath = `${exportPath}/content`
const importsPath = '/v1/orgs/{orgId}/imports'
const importPath = `${importsPath}/{importId}`
const errorsPath = `${importPath}/errors`
const cancelPath = `${importPath}/cancel`
// Exports hold the whole workspace and imports write into it: both are an admin's business.
const manage = { capability: 'manage' as const, target: () => ({ type: 'org' as const }) }
const pageQuery = obj({ ...PageQuery })

const exportOperations: AnyOperation[] = [
  declareOperation({
    id: 'exports.create',
    method: 'POST',
    path: exportsPath,
    tag: TAG,
    scope: 'work:write',
    ...manage,
    summary: 'Start an export of the workspace',
    description:
      `Queues an NDJSON export of the whole workspace: one line per record, with \`type\` first, in this order: ` +
      `${EXPORT_TYPES.map((t) => `\`${t}\``).join(', ')}. A background job writes it in resumable chunks; ` +
      'follow `exports.get`, then download the content. Owners and admins only.',
    params: obj(paramsOf(exportsPath)),
    body: obj({}),
    response: Export,
    status: 201,
    errors: [],
    location: 'exports.get',
    examples: exportExamples.create,
    run: (ctx) => createExport(ctx),
  }),
  declareOperation({
    id: 'exports.list',
    method: 'GET',
    path: exportsPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: 'List exports',
    description: "The workspace's exports, newest first. Owners and admins only.",
    params: obj(paramsOf(exportsPath)),
    query: pageQuery,
    response: PageOf(Export, 'Export'),
    status: 200,
    errors: [],
    examples: exportExamples.list,
    run: (ctx, { query }) => listExports(ctx, query),
  }),
  declareOperation({
    id: 'exports.get',
    method: 'GET',
    path: exportPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: 'Get an export',
    description: 'Its status and progress: records written so far by type, and bytes.',
    params: obj(paramsOf(exportPath)),
    response: Export,
    status: 200,
    errors: ['not_found'],
    examples: exportExamples.get,
    run: (ctx, { params }) => getExport(ctx, params.exportId as ExportId),
  }),
  declareOperation({
    id: 'exports.download',
    method: 'GET',
    path: contentPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: 'Download an export',
    description:
      'The NDJSON of a `completed` export, streamed as an attachment (`application/x-ndjson`). ' +
      'Before it is complete: 409 `conflict`. `imports.create` with `format: ndjson` replays it.',
    params: obj(paramsOf(contentPath)),
    response: Type.String({ description: 'NDJSON: one JSON object per line, each with `type`.' }),
    status: 200,
    errors: ['not_found', 'conflict'],
    examples: exportExamples.download,
    file: {
      mediaType: 'application/x-ndjson',
      filename: (r: { id: string }) => `workgraph-${r.id}.ndjson`,
      content: (storage, r) => exportContent(storage, r),
    },
    run: async (ctx, { params }) => {
      const record = await requireExport(ctx, params.exportId as ExportId)
      if (record.status !== 'completed')
        throw new ProblemError(
          'conflict',
          `The export is ${record.status}; download it once it is completed.`,
        )
      return { orgId: record.orgId, id: record.id }
    },
  }),
]

const importOperations: AnyOperation[] = [
  declareOperation({
    id: 'imports.create',
    method: 'POST',
    path: importsPath,
    tag: TAG,
    scope: 'work:write',
    ...manage,
    summary: 'Start an import',
    description:
      'Queues an import of `content`: a workgraph export (`ndjson`), a CSV of tasks with a header row ' +
      '(`csv`: title, description, state, assignee email, priority, labels, due date, estimate), ' +
      "Linear's CSV export (`linear_csv`) or GitHub's issues JSON (`github_json`), the last three into `teamId`. " +
      'Names are mapped to ids (states by name, else by category; labels; members by email, an unknown email ' +
      'invited); each row is one transaction, and a bad row is recorded as a row error with its line while the ' +
      "rest go on. Another tool's issue keeps its key and URL as a link on the task, and importing the same " +
      'file again updates what changed instead of duplicating (matched by the source id). `dryRun: true` counts ' +
      'what would be created, updated and refused and writes nothing else. The job emits `import.progressed` as ' +
      'it goes. An unreadable file, or a missing `teamId`, is 422 `rule_violated`. Owners and admins only; ' +
      'docs/importing.md.',
    params: obj(paramsOf(importsPath)),
    body: obj({
      format: StringEnum(IMPORT_FORMATS, {
        description:
          "`ndjson` (a workgraph export), `csv` (tasks), `linear_csv` (Linear's Export CSV) or `github_json` " +
          "(the array GitHub's `GET /repos/{owner}/{repo}/issues` answers; pull requests are skipped).",
      }),
      content: Type.String({
        minLength: 1,
        description:
          "The file, as text (up to the request size limit); the CLI's `workgraph import` reads it from disk.",
      }),
      teamId: Type.Optional(IdSchema('TeamId', 'For every format but `ndjson`: the team the tasks go to.')),
      dryRun: Type.Optional(
        Type.Boolean({
          description:
            'Check every row and count what would be created, updated and refused, writing nothing else (no invitations are sent). Not for `ndjson`.',
        }),
      ),
      sourceUrl: Type.Optional(
        Type.String({
          format: 'uri',
          pattern: '^https?://',
          maxLength: 500,
          description:
            'For `linear_csv`: your Linear workspace URL (`https://linear.app/acme`); each task links to its issue there.',
        }),
      ),
    }),
    response: Import,
    status: 201,
    errors: ['not_found', 'archived', 'rule_violated'],
    location: 'imports.get',
    examples: importExamples.create,
    run: (ctx, { body }) => createImport(ctx, body as never),
  }),
  declareOperation({
    id: 'imports.list',
    method: 'GET',
    path: importsPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: 'List imports',
    description: "The workspace's imports, newest first. Owners and admins only.",
    params: obj(paramsOf(importsPath)),
    query: pageQuery,
    response: PageOf(Import, 'Import'),
    status: 200,
    errors: [],
    examples: importExamples.list,
    run: (ctx, { query }) => listImports(ctx, query),
  }),
  declareOperation({
    id: 'imports.get',
    method: 'GET',
    path: importPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: 'Get an import',
    description: 'Its status and progress: rows processed (the checkpoint), created, skipped and refused.',
    params: obj(paramsOf(importPath)),
    response: Import,
    status: 200,
    errors: ['not_found'],
    examples: importExamples.get,
    run: (ctx, { params }) => getImport(ctx, params.importId as ImportId),
  }),
  declareOperation({
    id: 'imports.errors.list',
    method: 'GET',
    path: errorsPath,
    tag: TAG,
    scope: 'work:read',
    ...manage,
    summary: "List an import's row errors",
    description:
      'The rows the import refused (`refused: true`: nothing of the row written) or imported with a note ' +
      '(an unknown person invited, a state matched by category, a parent link that would close a cycle), by ' +
      'row number, with the line of the file, the field at fault and why.',
    params: obj(paramsOf(errorsPath)),
    query: pageQuery,
    response: PageOf(ImportError, 'ImportError'),
    status: 200,
    errors: ['not_found'],
    examples: importExamples.errors,
    run: (ctx, { params, query }) => listImportErrors(ctx, params.importId as ImportId, query),
  }),
  declareOperation({
    id: 'imports.cancel',
    method: 'POST',
    path: cancelPath,
    tag: TAG,
    scope: 'work:write',
    ...manage,
    summary: 'Cancel an import',
    description:
      'Stops a queued or running import after the row in progress: its status becomes `canceled` and ' +
      'the job takes no more rows. What it imported stays (each row is its own transaction); run it again ' +
      'to carry on, since rows imported before are matched, not doubled. An import that has finished is ' +
      '409 `conflict`. Emits `import.canceled`. Owners and admins only.',
    params: obj(paramsOf(cancelPath)),
    response: Import,
    status: 200,
    errors: ['not_found', 'conflict'],
    examples: importExamples.cancel,
    run: (ctx, { params }) => cancelImport(ctx, params.importId as ImportId),
  }),
]

/** Workspace exports and imports: docs/exports-imports.md. */
export const transferOperations: AnyOperation[] = [...exportOperations, ...importOperations]

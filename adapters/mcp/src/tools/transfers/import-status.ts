import { Type } from '@sinclair/typebox'
import { IdSchema, type Import } from '@workgraph/core'
import { object, Workspace } from '../schema.ts'
import type { ToolDefinition } from '../types.ts'

/** How many refused rows and notes a status answer quotes; the rest are behind `imports.errors.list`. */
const ERRORS_SHOWN = 10

const row = (i: Import) => ({
  id: i.id,
  format: i.format,
  status: i.status,
  dryRun: i.dryRun,
  rows: i.totalRows,
  processed: i.processedRows,
  // Tool formats link parents and blockers in a second pass over the same rows (not in a dry run).
  linked: i.linkedRows,
  created: i.createdCount,
  updated: i.updatedCount,
  skipped: i.skippedCount,
  refused: i.errorCount,
  ...(i.error ? { error: i.error } : {}),
  createdAt: i.createdAt,
  ...(i.completedAt ? { completedAt: i.completedAt } : {}),
})

/** "How is my import going": an import's progress and problems, or the latest imports. */
export const importTools: ToolDefinition[] = [
  {
    name: 'import_status',
    title: 'Import status',
    description:
      "An import's progress, counts and first problem rows with their lines; without `import`, the latest five. Owners and admins.",
    readOnly: true,
    destructive: false,
    idempotent: true,
    operations: ['imports.get', 'imports.errors.list', 'imports.list'],
    input: object({
      workspace: Workspace,
      import: Type.Optional(IdSchema('ImportId')),
    }),
    async run(call, args) {
      const org = await call.workspace(args.workspace)
      if (!args.import) {
        const page = await call.run<{ data: Import[] }>('imports.list', {
          params: { orgId: org.id },
          query: { limit: 5 },
        })
        return { imports: page.data.map(row) }
      }
      const params = { orgId: org.id, importId: args.import }
      const job = await call.run<Import>('imports.get', { params })
      const errors = await call.run<{ data: any[]; nextCursor: string | null }>('imports.errors.list', {
        params,
        query: { limit: ERRORS_SHOWN },
      })
      return {
        import: row(job),
        problems: errors.data.map((e) => ({
          row: e.row,
          ...(e.line ? { line: e.line } : {}),
          ...(e.field ? { field: e.field } : {}),
          refused: e.refused,
          message: e.message,
        })),
        moreProblems: errors.nextCursor !== null,
      }
    },
  },
]

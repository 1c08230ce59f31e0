import { readFile } from 'node:fs/promises'
import { defineCommand } from 'citty'
import { apiClient, type Page } from '../api.ts'
import { CliError } from '../errors.ts'
import { progressBar } from '../progress.ts'
import { accessTokenFor } from '../session.ts'
import { guarded, serverArg } from './shared.ts'

/**
 * The tool named on the command line → the import format of its export file; tools that export
 * both CSV and JSON are told apart by the file's extension.
 */
const FORMATS: Record<string, string | { csv: string; json: string }> = {
  linear: { csv: 'linear_csv', json: 'linear_json' },
  jira: { csv: 'jira_csv', json: 'jira_json' },
  asana: { csv: 'asana_csv', json: 'asana_json' },
  github: 'github_json',
  csv: 'csv',
  workgraph: 'ndjson',
}

/** Formats of other tools: two passes over the file, the records then the links between them. */
const TOOL_FORMATS = [
  'linear_csv',
  'linear_json',
  'jira_csv',
  'jira_json',
  'asana_csv',
  'asana_json',
  'github_json',
]

function formatOf(tool: string, file: string): string {
  const known = FORMATS[tool]
  if (!known) throw new CliError(`Unknown tool \`${tool}\`; one of ${Object.keys(FORMATS).join(', ')}.`)
  if (typeof known === 'string') return known
  return file.toLowerCase().endsWith('.json') ? known.json : known.csv
}

interface ImportJob {
  id: string
  status: string
  totalRows: number
  processedRows: number
  linkedRows: number
  createdCount: number
  updatedCount: number
  skippedCount: number
  errorCount: number
  error: string | null
}

interface RowError {
  row: number
  line: number | null
  field: string | null
  message: string
  refused: boolean
}

const FINISHED = ['completed', 'failed', 'canceled']
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export const importCommand = defineCommand({
  meta: {
    name: 'import',
    description:
      "Import another tool's export into a team: `workgraph import jira search.json --team ENG` (linear, jira, asana: .csv or .json; github, csv, workgraph)",
  },
  args: {
    tool: {
      type: 'positional',
      description: 'linear, jira, asana (CSV or JSON by the file extension), github, csv or workgraph',
      required: true,
    },
    file: { type: 'positional', description: 'The export file', required: true },
    team: { type: 'string', description: 'The key or id of the team the tasks go to (not for workgraph)' },
    org: { type: 'string', description: 'The workspace id or slug (default: your only workspace)' },
    'dry-run': {
      type: 'boolean',
      default: false,
      description: 'Count what would be imported; write nothing',
    },
    'source-url': { type: 'string', description: 'Linear: your workspace URL, e.g. https://linear.app/acme' },
    server: serverArg,
    json: { type: 'boolean', default: false, description: 'Print the finished import as JSON' },
  },
  run: guarded(async ({ args }) => {
    const format = formatOf(args.tool, args.file)
    // A file that is not UTF-8 is read as far as it is: the bytes that are not become U+FFFD, and the
    // server refuses those rows with their line numbers instead of guessing.
    const content = new TextDecoder().decode(await readFile(args.file))
    // The kept access token while it has a minute left, read again before each poll, so a long
    // import outlives the token it started with without a refresh per request.
    const client = async () => {
      const { origin, accessToken } = await accessTokenFor(args.server)
      return apiClient(origin, accessToken)
    }
    let api = await client()
    const orgs = (await api.get<Page<{ id: string; slug: string }>>('/v1/orgs?limit=200')).data
    const org = args.org ? orgs.find((o) => o.id === args.org || o.slug === args.org) : orgs[0]
    if (!org || (!args.org && orgs.length > 1))
      throw new CliError(args.org ? `No workspace \`${args.org}\`.` : 'Name the workspace with --org.')
    const base = `/v1/orgs/${org.id}`
    let teamId: string | undefined
    if (format !== 'ndjson') {
      if (!args.team) throw new CliError('Name the team the tasks go to with --team (its key, e.g. ENG).')
      const teams = (await api.get<Page<{ id: string; key: string }>>(`${base}/teams?limit=200`)).data
      teamId = teams.find((t) => t.key === args.team || t.id === args.team)?.id
      if (!teamId) throw new CliError(`No team \`${args.team}\` in the workspace.`)
    }
    const created = await api.post<ImportJob>(`${base}/imports`, {
      format,
      content,
      ...(teamId ? { teamId } : {}),
      ...(args['dry-run'] ? { dryRun: true } : {}),
      ...(args['source-url'] ? { sourceUrl: args['source-url'] } : {}),
    })
    // Tool formats take two passes over the file: the records, then the links between them.
    const passes = TOOL_FORMATS.includes(format) ? (args['dry-run'] ? 1 : 2) : 1
    const bar = progressBar(created.totalRows * passes)
    let shown = 0
    let job = created
    while (!FINISHED.includes(job.status)) {
      await sleep(500)
      api = await client()
      job = await api.get<ImportJob>(`${base}/imports/${created.id}`)
      const done = job.processedRows + job.linkedRows
      for (; shown < done; shown++) bar.tick(`${job.createdCount} created, ${job.errorCount} refused`)
    }
    bar.done()
    const errors: RowError[] = []
    let cursor: string | null = null
    do {
      const page: Page<RowError> = await api.get<Page<RowError>>(
        `${base}/imports/${created.id}/errors?limit=200${cursor ? `&cursor=${cursor}` : ''}`,
      )
      errors.push(...page.data)
      cursor = page.nextCursor
    } while (cursor)
    if (args.json) {
      process.stdout.write(`${JSON.stringify({ import: job, errors }, null, 2)}\n`)
    } else {
      const verb = args['dry-run'] ? 'would be ' : ''
      const lines = [
        `Import ${job.id} ${job.status}${job.error ? `: ${job.error}` : ''}`,
        `  ${job.createdCount} ${verb}created, ${job.updatedCount} ${verb}updated, ${job.skippedCount} unchanged or skipped, ${job.errorCount} refused`,
        ...errors.map(
          (e) =>
            `  ${e.refused ? 'refused' : 'note'} row ${e.row}${e.line ? ` (line ${e.line})` : ''}${e.field ? ` ${e.field}` : ''}: ${e.message}`,
        ),
      ]
      process.stdout.write(`${lines.join('\n')}\n`)
    }
    if (job.status !== 'completed') process.exitCode = 1
  }),
})

/**
 * Export files of other tools, written for the import tests in each tool's published format:
 * Linear's "Export CSV" (its columns, in its order) and the array GitHub's
 * `GET /repos/{owner}/{repo}/issues` answers. Generated rows plus hand-written awkward ones.
 */

/** The columns of Linear's CSV export, in its order. */
export const LINEAR_COLUMNS = [
  'ID',
  'Team',
  'Title',
  'Description',
  'Status',
  'Estimate',
  'Priority',
  'Project ID',
  'Project',
  'Creator',
  'Assignee',
  'Labels',
  'Cycle Number',
  'Cycle Name',
  'Cycle Start',
  'Cycle End',
  'Created',
  'Updated',
  'Started',
  'Triaged',
  'Completed',
  'Canceled',
  'Archived',
  'Due Date',
  'Parent issue',
  'Initiatives',
  'Project Milestone ID',
  'Project Milestone',
  'SLA Status',
  'Roadmaps',
  'Blocked by',
] as const
type LinearRow = Partial<Record<(typeof LINEAR_COLUMNS)[number], string>>

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)

const STATUSES = ['Backlog', 'Todo', 'In Progress', 'Done', 'Canceled', 'In QA'] as const
const PRIORITIES = ['No priority', 'Urgent', 'High', 'Medium', 'Low'] as const

export interface LinearFixture {
  /** The file as its bytes, and as the text a UTF-8 decoder (the CLI's, non-fatal) makes of them. */
  bytes: Buffer
  text: string
  /** Rows by number (1 = first after the header) → the line of the file each starts on. */
  lineOf: Map<number, number>
  rows: number
  /** Generated issues plus the awkward ones that are imported. */
  imported: number
  refusedRows: number[]
}

/**
 * `count` generated issues ENG-1…, then the awkward rows: a duplicate key, two issues each the
 * other's parent, a title with bytes that are not UTF-8, an estimate that is not a number, an empty
 * title and a row without its ID.
 */
export function linearExport(count: number, ownerEmail: string): LinearFixture {
  const rows: LinearRow[] = []
  for (let i = 1; i <= count; i++) {
    const status = STATUSES[i % STATUSES.length]!
    const started = ['In Progress', 'Done', 'In QA'].includes(status)
    const cycle = i % 6 === 0 ? 1 : i % 6 === 3 ? 2 : null
    rows.push({
      ID: `ENG-${i}`,
      Team: 'Engineering',
      Title: `Issue ${i}`,
      Description: i % 9 === 0 ? `Line one of ${i}\nline "two", quoted` : '',
      Status: status,
      Estimate: i % 3 === 0 ? String([1, 2, 3, 5, 8][i % 5]) : '',
      Priority: PRIORITIES[i % PRIORITIES.length]!,
      Project: i % 4 === 0 ? 'Mobile app' : '',
      Creator: 'Ada Lovelace',
      Assignee:
        i % 5 === 0
          ? ownerEmail
          : i % 7 === 0
            ? 'newcomer@example.com'
            : i % 11 === 0
              ? 'Someone Unknown'
              : '',
      Labels: [i % 2 ? 'Bug' : '', i % 3 === 0 ? 'Frontend' : ''].filter(Boolean).join(', '),
      'Cycle Number': cycle ? String(cycle) : '',
      'Cycle Name': cycle ? `Sprint ${cycle}` : '',
      'Cycle Start': cycle === 1 ? '2031-01-06T00:00:00.000Z' : cycle === 2 ? '2031-01-20T00:00:00.000Z' : '',
      'Cycle End': cycle === 1 ? '2031-01-20T00:00:00.000Z' : cycle === 2 ? '2031-02-03T00:00:00.000Z' : '',
      Created: '2030-06-01T10:00:00.000Z',
      Updated: '2030-06-02T10:00:00.000Z',
      Started: started ? '2030-06-03T10:00:00.000Z' : '',
      Completed: status === 'Done' ? '2030-06-04T10:00:00.000Z' : '',
      Canceled: status === 'Canceled' ? '2030-06-04T10:00:00.000Z' : '',
      'Due Date': i % 8 === 0 ? `2031-03-${String((i % 28) + 1).padStart(2, '0')}` : '',
      // Forward references: the parent comes later in the file.
      'Parent issue': i % 10 === 1 && i + 5 <= count ? `ENG-${i + 5}` : '',
      'Blocked by': i % 12 === 2 && i + 1 <= count ? `ENG-${i + 1}` : '',
    })
  }
  const awkward: LinearRow[] = [
    { ID: 'ENG-3', Title: 'A second ENG-3', Status: 'Todo' },
    { ID: 'ENG-901', Title: 'Cycle A', Status: 'Todo', 'Parent issue': 'ENG-902' },
    { ID: 'ENG-902', Title: 'Cycle B', Status: 'Todo', 'Parent issue': 'ENG-901' },
    { ID: 'ENG-903', Title: '\u0000BYTES\u0000', Status: 'Todo' },
    { ID: 'ENG-904', Title: 'Estimate', Status: 'Todo', Estimate: 'lots' },
    { ID: 'ENG-905', Title: '', Status: 'Todo' },
    { ID: '', Title: 'No id', Status: 'Todo' },
  ]
  const all = [...rows, ...awkward]
  const lines = [LINEAR_COLUMNS.join(',')]
  const lineOf = new Map<number, number>()
  let line = 2
  all.forEach((row, i) => {
    lineOf.set(i + 1, line)
    const text = LINEAR_COLUMNS.map((c) => quote(row[c] ?? '')).join(',')
    line += text.split('\n').length
    lines.push(text)
  })
  // Latin-1 bytes where UTF-8 is expected: "Caf\xe9 \xff".
  const bytes = Buffer.concat(
    `${lines.join('\n')}\n`
      .split('\u0000BYTES\u0000')
      .flatMap((part, i) =>
        i === 0
          ? [Buffer.from(part)]
          : [Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0xff]), Buffer.from(part)],
      ),
  )
  const refused = [count + 1, count + 4, count + 5, count + 6, count + 7]
  return {
    bytes,
    text: new TextDecoder().decode(bytes),
    lineOf,
    rows: all.length,
    imported: count + 2,
    refusedRows: refused,
  }
}

/** GitHub's issue list: `total` items, every sixth a pull request; issues open, closed, closed as not planned. */
export function githubExport(total: number, loginOf: (i: number) => string | null): unknown[] {
  const items: unknown[] = []
  for (let i = 1; i <= total; i++) {
    const pull = i % 6 === 0
    const login = loginOf(i)
    items.push({
      url: `https://api.github.com/repos/acme/app/issues/${i}`,
      repository_url: 'https://api.github.com/repos/acme/app',
      html_url: `https://github.com/acme/app/${pull ? 'pull' : 'issues'}/${i}`,
      id: 900_000 + i,
      node_id: `I_kwDO${i}`,
      number: i,
      title: `GitHub issue ${i}`,
      user: { login: 'octocat', id: 1, type: 'User' },
      labels: i % 2 ? [{ id: 1, name: 'bug', color: 'd73a4a', default: true }] : [],
      state: i % 3 === 0 ? 'closed' : 'open',
      state_reason: i % 3 === 0 ? (i % 2 ? 'not_planned' : 'completed') : null,
      locked: false,
      assignee: login ? { login, id: 2, type: 'User' } : null,
      assignees: login ? [{ login, id: 2, type: 'User' }] : [],
      milestone:
        i % 4 === 0
          ? { id: 7, number: 1, title: 'v1.0', state: 'open', due_on: '2031-05-01T07:00:00Z' }
          : null,
      comments: 0,
      created_at: '2030-06-01T10:00:00Z',
      updated_at: '2030-06-02T10:00:00Z',
      closed_at: i % 3 === 0 ? '2030-06-03T10:00:00Z' : null,
      author_association: 'OWNER',
      body: i % 5 === 0 ? `Steps:\r\n1. open\r\n2. "click"` : null,
      ...(pull
        ? { pull_request: { url: `https://api.github.com/repos/acme/app/pulls/${i}`, merged_at: null } }
        : {}),
    })
  }
  return items
}

/**
 * Export files of Asana and Linear's GraphQL API (Jira's are in jira-fixtures.ts), written for the import tests in each tool's
 * published shape: generated issues plus the awkward ones (quoted newlines, unknown people, a
 * status the team lacks, a duplicate key, bytes that are not UTF-8, a broken row).
 */

/** Latin-1 bytes where UTF-8 is expected, decoded as the CLI does: U+FFFD in the text. */
export const NOT_UTF8 = new TextDecoder().decode(Buffer.from([0x43, 0x61, 0x66, 0xe9, 0x20, 0xff]))

const quote = (cell: string) => (/[",\n\r]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)

/** A CSV whose header may repeat names (Jira's): rows give each column's cells in header order. */
export function csvOf(header: string[], rows: Array<Record<string, string | string[]>>) {
  const lines = [header.map(quote).join(',')]
  const lineOf = new Map<number, number>()
  let line = 2
  const taken = (row: Record<string, string | string[]>) => {
    const used = new Map<string, number>()
    return header.map((h) => {
      const v = row[h]
      const n = used.get(h) ?? 0
      used.set(h, n + 1)
      return quote(Array.isArray(v) ? (v[n] ?? '') : n === 0 ? (v ?? '') : '')
    })
  }
  rows.forEach((row, i) => {
    lineOf.set(i + 1, line)
    const text = taken(row).join(',')
    line += text.split('\n').length
    lines.push(text)
  })
  return { text: `${lines.join('\n')}\n`, lineOf }
}

export interface ToolFixture {
  content: string
  rows: number
  lineOf?: Map<number, number>
}

// ---- Asana -----------------------------------------------------------------------------------

const ASANA_SECTIONS = ['To do', 'In Progress', 'Doing', 'Done', '']

function asanaTask(i: number, count: number, ownerEmail: string) {
  const section = ASANA_SECTIONS[i % ASANA_SECTIONS.length]!
  return {
    gid: String(1_200_000 + i),
    resource_type: 'task',
    name: `Asana task ${i}`,
    notes: i % 9 === 0 ? `Line one of ${i}\nline "two", quoted` : '',
    completed: section === 'Done' || i % 11 === 0,
    completed_at: section === 'Done' ? '2030-06-04T10:00:00.000Z' : null,
    created_at: '2030-06-01T10:00:00.000Z',
    assignee:
      i % 5 === 0
        ? { gid: '1', name: 'Owner', email: ownerEmail }
        : i % 7 === 0
          ? { gid: '2', name: 'Newcomer', email: 'newcomer@example.com' }
          : null,
    due_on: i % 8 === 0 ? '2031-03-09' : null,
    memberships: [
      {
        project: { gid: '99', name: 'Website launch' },
        section: section ? { gid: `s${i % 5}`, name: section } : null,
      },
    ],
    tags: i % 2 ? [{ gid: 't1', name: 'design' }] : [],
    parent: i % 10 === 3 && i < count ? { gid: String(1_200_001 + i), name: `Asana task ${i + 1}` } : null,
    dependencies: i % 12 === 4 && i < count ? [{ gid: String(1_200_001 + i) }] : [],
    permalink_url: `https://app.asana.com/0/99/${1_200_000 + i}`,
    custom_fields: [
      {
        gid: 'cf1',
        name: 'Priority',
        resource_subtype: 'enum',
        enum_value: i % 4 === 0 ? { name: 'High' } : i % 13 === 0 ? { name: 'Someday' } : null,
        display_value: null,
      },
      { gid: 'cf2', name: 'Estimate', resource_subtype: 'number', number_value: i % 3 === 0 ? 3 : null },
    ],
    stories:
      i % 4 === 0
        ? [
            {
              gid: `st${i}a`,
              type: 'system',
              resource_subtype: 'assigned',
              text: 'assigned to you',
              created_at: '2030-06-01T10:00:00.000Z',
            },
            {
              gid: `st${i}b`,
              type: 'comment',
              resource_subtype: 'comment_added',
              text: `Looks good, ${i}`,
              created_at: '2030-06-02T10:00:00.000Z',
              created_by: { gid: '1', name: 'Owner', email: ownerEmail },
            },
            {
              gid: `st${i}c`,
              type: 'comment',
              resource_subtype: 'comment_added',
              text: 'From a former colleague',
              created_at: '2030-06-03T10:00:00.000Z',
              created_by: { gid: '3', name: 'Alan Turing' },
            },
          ]
        : [],
  }
}

export function asanaJsonExport(count: number, ownerEmail: string) {
  const data: unknown[] = []
  for (let i = 1; i <= count; i++) data.push(asanaTask(i, count, ownerEmail))
  data.push({ ...asanaTask(3, count, ownerEmail), name: 'A second 3' })
  data.push({ gid: '1299001', name: '' })
  data.push({ gid: '1299002', name: `Bytes ${NOT_UTF8}` })
  data.push({ gid: '1299003', name: 'Bad due', due_on: 'tomorrow' })
  return {
    content: JSON.stringify({ data }),
    rows: count + 4,
    tasks: count,
    refused: [count + 1, count + 2, count + 3, count + 4],
  }
}

export const ASANA_CSV_HEADER = [
  'Task ID',
  'Created At',
  'Completed At',
  'Last Modified',
  'Name',
  'Section/Column',
  'Assignee',
  'Assignee Email',
  'Start Date',
  'Due Date',
  'Tags',
  'Notes',
  'Projects',
  'Parent task',
  'Blocked By (Dependencies)',
  'Blocking (Dependencies)',
  'Priority',
  'Estimate',
]

export function asanaCsvExport(count: number, ownerEmail: string) {
  const rows: Array<Record<string, string>> = []
  for (let i = 1; i <= count; i++) {
    const section = ASANA_SECTIONS[i % ASANA_SECTIONS.length]!
    rows.push({
      'Task ID': String(1_300_000 + i),
      'Created At': '2030-06-01',
      'Completed At': section === 'Done' ? '2030-06-04' : '',
      'Last Modified': '2030-06-05',
      Name: `Asana CSV task ${i}`,
      'Section/Column': section,
      Assignee: i % 5 === 0 ? 'Owner' : i % 7 === 0 ? 'Newcomer' : '',
      'Assignee Email': i % 5 === 0 ? ownerEmail : i % 7 === 0 ? 'newcomer@example.com' : '',
      'Due Date': i % 8 === 0 ? '2031-03-09' : '',
      Tags: i % 2 ? 'design,web' : '',
      Notes: i % 9 === 0 ? `Line one of ${i}\nline "two", quoted` : '',
      Projects: 'Website launch',
      'Parent task':
        i % 10 === 3 && i < count ? String(1_300_001 + i) : i % 10 === 7 ? 'Some parent by name' : '',
      'Blocked By (Dependencies)': i % 12 === 4 && i < count ? String(1_300_001 + i) : '',
      Priority: i % 4 === 0 ? 'High' : '',
      Estimate: i % 3 === 0 ? '5' : '',
    })
  }
  rows.push({ 'Task ID': '1300003', Name: 'A second 3' })
  rows.push({ 'Task ID': '1399001', Name: `Bytes ${NOT_UTF8}` })
  rows.push({ 'Task ID': '1399002', Name: 'Bad estimate', Estimate: 'lots' })
  rows.push({ 'Task ID': '', Name: 'No id' })
  const { text, lineOf } = csvOf(ASANA_CSV_HEADER, rows)
  return {
    content: text,
    lineOf,
    rows: rows.length,
    tasks: count,
    refused: [count + 1, count + 2, count + 3, count + 4],
  }
}

// ---- Linear GraphQL --------------------------------------------------------------------------

const LINEAR_STATES = [
  { name: 'Backlog', type: 'backlog' },
  { name: 'Todo', type: 'unstarted' },
  { name: 'In Progress', type: 'started' },
  { name: 'Done', type: 'completed' },
  { name: 'Canceled', type: 'canceled' },
  { name: 'In QA', type: 'started' },
]

function linearNode(i: number, count: number, ownerEmail: string) {
  const cycle = i % 6 === 0 ? 1 : i % 6 === 3 ? 2 : null
  return {
    id: `uuid-${i}`,
    identifier: `LIN-${i}`,
    url: `https://linear.app/acme/issue/LIN-${i}/issue-${i}`,
    title: `Linear issue ${i}`,
    description: i % 9 === 0 ? `Line one of ${i}\nline "two", quoted` : null,
    state: LINEAR_STATES[i % LINEAR_STATES.length],
    assignee:
      i % 5 === 0
        ? { email: ownerEmail, name: 'Owner' }
        : i % 7 === 0
          ? { email: 'newcomer@example.com', name: 'New' }
          : null,
    priority: i % 5,
    estimate: i % 3 === 0 ? [1, 2, 3, 5, 8][i % 5] : null,
    dueDate: i % 8 === 0 ? '2031-03-09' : null,
    labels: { nodes: i % 2 ? [{ name: 'Bug' }] : [] },
    project: i % 4 === 0 ? { id: 'p1', name: 'Mobile app', targetDate: '2031-06-30' } : null,
    cycle: cycle
      ? {
          id: `c${cycle}`,
          number: cycle,
          name: `Cycle ${cycle}`,
          startsAt: cycle === 1 ? '2031-01-06T00:00:00.000Z' : '2031-01-20T00:00:00.000Z',
          endsAt: cycle === 1 ? '2031-01-20T00:00:00.000Z' : '2031-02-03T00:00:00.000Z',
        }
      : null,
    parent: i % 10 === 1 && i + 5 <= count ? { identifier: `LIN-${i + 5}` } : null,
    relations: {
      nodes:
        i % 12 === 2 && i < count ? [{ type: 'blocks', relatedIssue: { identifier: `LIN-${i + 1}` } }] : [],
    },
    inverseRelations: { nodes: [] },
    comments: {
      nodes:
        i % 4 === 0
          ? [
              {
                id: `cm-${i}-1`,
                body: `Comment on ${i}`,
                createdAt: '2030-06-02T10:00:00.000Z',
                user: { email: ownerEmail, name: 'Owner' },
              },
              {
                id: `cm-${i}-2`,
                body: 'From someone gone',
                createdAt: '2030-06-03T10:00:00.000Z',
                user: { email: 'gone@example.com', name: 'Gone' },
              },
            ]
          : [],
    },
  }
}

export function linearJsonExport(count: number, ownerEmail: string) {
  const nodes: unknown[] = []
  for (let i = 1; i <= count; i++) nodes.push(linearNode(i, count, ownerEmail))
  nodes.push({ ...linearNode(3, count, ownerEmail), title: 'A second LIN-3' })
  nodes.push({ ...linearNode(9001, count, ownerEmail), identifier: 'LIN-9001', title: '' })
  nodes.push({ ...linearNode(9002, count, ownerEmail), identifier: 'LIN-9002', priority: 9 })
  nodes.push({ identifier: 'LIN-9003', title: `Bytes ${NOT_UTF8}` })
  return {
    content: JSON.stringify({
      data: { issues: { nodes, pageInfo: { hasNextPage: false, endCursor: null } } },
    }),
    rows: count + 4,
    tasks: count,
    refused: [count + 1, count + 2, count + 3, count + 4],
  }
}
